"""Stored text never drives the terminal: every command of the CLI, on a journal holding ESC, BEL and bidi
overrides in names and memos (an older release's ledger), prints them escaped (:func:`banker_cli.common.shown`)."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from banker_cli.main import cli
from tests.cli.test_export_safety import HOSTILE, old_ledger  # noqa: F401 (a fixture)

#: How each command runs on the hostile ledger ({db}, {dir}); a new command fails the test until it is named
#: here or in SKIPPED.
ARGS = {
    "cards list": [], "game list": [], "game show": [], "game backups": [], "game backup": [], "deeds list": [],
    "ledger show": [], "ledger export": [], "ledger verify": [],
    "script": ["{dir}/fails.kps"],
    "cards enrol": ["Carol" + HOSTILE[:5]],
    "cards rename": [HOSTILE, "Alice\x1b[31m"],
    "cards remove": ["Bob"],
    "ledger undo": [], "game new": [], "game restore": ["1"],
    "deeds enrol": ["boardwalk", "--uid", "DEED01"],
    "ledger accept": [], "ledger upgrade": [],
    "key export": ["-o", "{dir}/key.txt"],
}
#: Commands not run here, and why.
SKIPPED = {
    "run": "runs the unit on hardware until stopped (its lines: tests/keypad/test_unit.py)",
    "sim": "opens a window (its lines go through shown: banker_cli/sim.py)",
    "web": "serves until stopped (its log lines: the Redact filter, tested below)",
    "doctor": "prints the device config, not the journal",
    "pin set": "prompts for the new PIN",
    "key adopt": "the key's commands (banker_cli/key_cli.py) are another part's",
    "key import": "the key's commands (banker_cli/key_cli.py) are another part's",
}


def leaves(group: click.Group, ctx: click.Context, path: tuple = ()) -> list[str]:
    found = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            found += leaves(command, ctx, (*path, name))
        else:
            found.append(" ".join((*path, name)))
    return found


COMMANDS = leaves(cli, click.Context(cli))


def test_every_command_is_run_on_the_hostile_ledger_or_skipped_with_a_reason():
    assert sorted(set(COMMANDS) - set(ARGS) - set(SKIPPED)) == []


def printable(text: str) -> bool:
    return all(line.isprintable() for line in text.replace("\r\n", "\n").split("\n"))


@pytest.mark.parametrize("command", [c for c in COMMANDS if c in ARGS])
def test_no_raw_control_character_reaches_the_terminal(command, old_ledger, tmp_path):  # noqa: F811
    (tmp_path / "fails.kps").write_text("expect balance Bob 1M\n", encoding="utf-8")
    args = [a.format(db=old_ledger, dir=tmp_path) for a in ARGS[command]]
    for extra in ([], ["--json"]) if command in ("game show", "deeds list") else ([],):
        result = CliRunner().invoke(cli, [*command.split(), *args, *extra, "--db", str(old_ledger)])
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert printable(result.stdout), (command, result.stdout)
        assert printable(result.stderr), (command, result.stderr)


def test_names_and_memos_are_shown_escaped_where_they_are_listed(old_ledger):  # noqa: F811
    for command in (["cards", "list"], ["game", "show"], ["ledger", "show"]):
        result = CliRunner().invoke(cli, [*command, "--db", str(old_ledger)])
        assert result.exit_code == 0, result.output
        assert "Al\\x1b]0;owned\\x07i" in result.stdout and "\\u202e" in result.stdout


def test_rename_says_both_names_escaped(old_ledger):  # noqa: F811
    result = CliRunner().invoke(cli, ["cards", "rename", HOSTILE, "Alice", "--db", str(old_ledger)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("renamed Al\\x1b]0;owned\\x07i") and printable(result.stdout)


def test_the_pages_log_lines_show_control_characters_escaped():
    import logging

    from web.server import log

    seen = []

    class Keep(logging.Handler):
        def emit(self, record):
            seen.append(record.getMessage())

    handler = Keep()
    log.addHandler(handler)
    try:
        log.warning("a request for %s", "/\x1b]0;owned\x07\u202e")
    finally:
        log.removeHandler(handler)
    assert seen == ["a request for /\\x1b]0;owned\\x07\\u202e"]
