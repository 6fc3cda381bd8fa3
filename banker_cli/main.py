"""The ``banker`` command (click): a table of its commands, each loaded only when it runs.

``banker --help`` lists the commands from :data:`COMMANDS` (names and
one-line helps) without importing any of them; a command's module is
imported when it runs or its own help is asked for. The commands live in
``script_cli`` (keypad scripts), ``ledger_cli`` (cards, games, the journal),
``rules_cli`` (deeds, the game's state), ``safety`` (verify, undo, the PIN,
backups), ``device_cli`` (run, doctor), ``sim`` and ``web_cli``. Every
command takes ``--db PATH`` and ``--config FILE`` (the ledger's order:
docs/cli.md). A user's mistake prints one line on stderr and exits with the
code of docs/cli.md; nothing is changed.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import NoReturn

import click

from .entry import terminal_width
from .options import ascii_numbers

#: Every command: name -> ("module:attribute", its one-line help, optional?). The help is the first line of the
#: command's docstring (tests/cli/test_cli.py checks), so the listing needs no import.
COMMANDS = {
    "script": ("banker_cli.script_cli:script_command", 'Run a keypad script FILE ("-" for stdin) against the unit.'),
    "cards": ("banker_cli.ledger_cli:cards", "List, enrol, rename and remove player cards."),
    "game": ("banker_cli.main:game", "List, start, show and restore games (old games are archived, never deleted)."),
    "deeds": ("banker_cli.rules_cli:deeds_group", "The title deeds of the board, and their RFID tags."),
    "ledger": ("banker_cli.main:ledger", "Show, export, verify and undo the journal of transactions."),
    "pin": ("banker_cli.safety:pin_group",
            "The banker's PIN, which protects enrolment, settings, restores and undoing old entries."),
    "key": ("banker_cli.key_cli:key_group",
            "The ledger's key: export it, import it on another machine, or adopt a ledger whose key is lost."),
    "sim": ("banker_cli.sim:sim_command",
            "Open the banker unit in a window and play: click or type the keys, drag the cards."),
    "run": ("banker_cli.device_cli:run_command", "Run the unit on its hardware until stopped (SIGTERM or Ctrl-C)."),
    "doctor": ("banker_cli.device_cli:doctor_command",
               "Check each configured device and say what was found; exit 1 if any is missing."),
    "web": ("banker_cli.web_cli:web_command",
            "Serve the table page for the ledger: every phone and the TV see the game, live.", True),
}
GAME_COMMANDS = {
    "list": ("banker_cli.ledger_cli:game_list", "List every game, the current one marked with *."),
    "new": ("banker_cli.ledger_cli:game_new",
            "Archive the current game and start a new one, every card at the start balance."),
    "show": ("banker_cli.rules_cli:game_show_command",
             "Show the current game: balances and worth, who owns which deed, buildings, mortgages, the bank's stock."),
    "restore": ("banker_cli.ledger_cli:game_restore",
                "Make the archived game GAME_ID current again, or bring back a backup of the ledger."),
    "backup": ("banker_cli.stick:game_backup", "Make a backup of the ledger now: beside it, and on the config's "
               "[backups] second_folder (a USB stick)."),
    "backups": ("banker_cli.safety:game_backups", "List the ledger's backups, newest first (made at each new game and "
                "every 5 minutes of play)."),
}
LEDGER_COMMANDS = {
    "show": ("banker_cli.ledger_cli:ledger_show", "Show the journal of a game, one posting a line."),
    "export": ("banker_cli.ledger_cli:ledger_export",
               "Export a game's journal as CSV or JSON (amounts in whole dollars)."),
    "verify": ("banker_cli.safety:ledger_verify",
               "Check the journal: every row's hash, no row missing, money conserved, balances and deeds replay."),
    "undo": ("banker_cli.safety:ledger_undo",
             "Undo transaction TX_ID (default: the game's last) by posting its reversing entry."),
    "accept": ("banker_cli.ledger_cli:ledger_accept",
               "Accept the journal as it stands though it is not the one anchored (journalled; needs the banker's PIN)."),
    "upgrade": ("banker_cli.ledger_cli:ledger_upgrade",
                "Bring a ledger of an earlier release into the keyed chain (a copy of the old file is kept beside it)."),
}


class _Context(click.Context):
    """A context whose help needs no ``shutil`` (and its compression modules) to know the terminal's width."""

    def make_formatter(self) -> click.HelpFormatter:
        return self.formatter_class(width=self.terminal_width or terminal_width(), max_width=self.max_content_width)


class LazyGroup(click.Group):
    """A group whose commands are named in a table and imported only when one runs (or its own help is asked for).

    ``table`` maps a name to ``("module:attribute", one-line help[, optional])``.
    An optional command whose module can't be imported (``banker web`` in an
    install without it) says so and exits 3 instead of crashing.
    """

    context_class = _Context

    def __init__(self, *args, table: dict[str, tuple], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table = table

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.table) + sorted(set(self.commands) - set(self.table))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.commands or name not in self.table:
            return self.commands.get(name)
        target, _, *optional = self.table[name]
        module, _, attribute = target.partition(":")
        try:
            command = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as exc:
            if not optional:
                raise
            command = _unavailable(name, self.table[name][1], exc)
        self.commands[name] = ascii_numbers(command)  # docs/cli.md: a number is in the ASCII digits, for every command
        return command

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """As click's, but an unknown name is matched against every command of the table, not only those loaded."""
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as exc:
            raise click.exceptions.NoSuchCommand(exc.command_name, possibilities=self.list_commands(ctx),
                                                 ctx=exc.ctx) from None

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError as exc:  # banker --help | head
            if parent is not None:
                raise
            _end_quietly(exc)
        except click.ClickException as exc:  # the root's own options: shown as every other usage error
            if parent is None:
                _one_line(exc)
            raise

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The listing, from the table's one-line helps: nothing is imported to show it."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            help_ = self.table[name][1] if name in self.table else self.commands[name].get_short_help_str(limit)
            rows.append((name, _shortened(help_, limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(self, *args, **kwargs):
        """As click's; then stdout is flushed here, so a reader that closed the pipe early ends it quietly too."""
        try:
            return super().main(*args, **kwargs)
        finally:
            try:
                sys.stdout.flush()
            except BrokenPipeError:
                _stdout_to_devnull()

    def invoke(self, ctx: click.Context):
        if ctx.parent is not None:
            return super().invoke(ctx)
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()  # what is still buffered goes now, while a closed pipe can still end quietly
            return result
        except BrokenPipeError as exc:  # the reader of stdout went away (banker deeds list | head): done, exit 0
            _end_quietly(exc)
        except click.ClickException as exc:  # bad usage of a command, found by click: one line, and the usage
            _one_line(exc)
            raise
        except Exception as exc:  # a ledger, disk or device error that no command caught: its line and exit code
            if isinstance(exc, (click.exceptions.Exit, click.Abort)):
                raise
            from .common import describe, exit_code, fail

            code = exit_code(exc)  # re-raises what is no user's or device's problem (a bug: its traceback)
            fail(describe(exc), code)


def _end_quietly(exc: BrokenPipeError) -> NoReturn:
    """Exit 0 when ``exc`` is stdout's reader having gone (docs/cli.md: ``banker ... | head``); else raise it."""
    from .common import reader_gone

    if not reader_gone(exc):
        raise exc
    _stdout_to_devnull()
    sys.exit(0)


def _stdout_to_devnull() -> None:
    """Point stdout at /dev/null once its reader has gone, so no later flush (at exit) fails again: the Python
    docs' note on SIGPIPE (``signal`` module), which keeps Python's own handling of the signal."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # stdout is no file (a test's captured output): nothing to point
        pass


def _one_line(exc: click.ClickException) -> None:
    """``exc`` shown as every error of the command is (docs/cli.md): one ``banker: ...`` line on stderr; for bad
    usage, the command's usage line after it. Its exit code stays click's (2 for bad usage). A group called
    without a command still shows its help."""
    if isinstance(exc, click.exceptions.NoArgsIsHelpError):
        return

    def show(file=None) -> None:
        from .common import shown

        message = exc.format_message()
        close = getattr(exc, "possibilities", None)  # click's own suggestions (no such command, no such option)
        if close:
            message = f"{exc.message.rstrip('.')} (did you mean {' or '.join(repr(c) for c in close)}?)"
        elif message.endswith(".") and not message.endswith(".."):
            message = message[:-1]
        if message[:1].isupper() and message[1:2].islower():
            message = message[0].lower() + message[1:]  # "No such option" -> as our own messages: "no such option"
        click.echo(f"banker: {shown(message)}", err=True)
        ctx = getattr(exc, "ctx", None)
        if isinstance(exc, click.UsageError) and ctx is not None:
            click.echo(f"{ctx.get_usage()}  ('{ctx.command_path} --help' says more)", err=True)

    exc.show = show


def _shortened(text: str, limit: int) -> str:
    """``text`` cut at a word to at most ``limit`` characters, as click shortens a help line."""
    if len(text) <= limit:
        return text
    return text[:max(limit - 3, 0)].rsplit(" ", 1)[0].rstrip(",;:") + "..."


def _unavailable(name: str, help_: str, why: Exception) -> click.Command:
    def say() -> None:
        from .common import UNUSABLE, fail

        fail(f"'banker {name}' is not available in this install ({why}); see docs/cli.md", UNUSABLE)

    return click.Command(name, callback=say, help=f"{help_} (Not available here: {why}.)", add_help_option=False,
                         context_settings={"ignore_unknown_options": True, "allow_extra_args": True})


@click.group(cls=LazyGroup, table=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="monopoly-banker")
def cli() -> None:
    """The Monopoly Electronic Banking unit: ledger, keypad scripts, simulator and device."""


# -- the groups whose commands live in several modules -----------------------------------


@click.group(cls=LazyGroup, table=GAME_COMMANDS)
def game() -> None:
    """List, start, show and restore games (old games are archived, never deleted)."""


@click.group(cls=LazyGroup, table=LEDGER_COMMANDS)
def ledger() -> None:
    """Show, export, verify and undo the journal of transactions."""
