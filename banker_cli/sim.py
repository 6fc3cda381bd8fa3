"""The ``banker sim`` command: the desktop simulator's window, or a keypad script played in it headless.

Register it with ``cli.add_command(sim_command, "sim")``; ``python -m
banker_cli.sim`` runs it on its own.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path
from typing import NamedTuple

import click


from banker.script import run as script_run
from banker.errors import BankerError
from banker_cli.common import UNUSABLE, current_config, db_option, fail, open_ledger, pin_option, shown
from banker_cli.options import Pair

#: Exit code when no window can be opened (no display, or pygame not installed): a device that can't be used.
NO_DISPLAY = UNUSABLE
#: The scales offered: the smallest text stays legible at each (firmware_sim.desktop.layout.SCALES says the same).
SMALLEST_SCALE, LARGEST_SCALE = 2, 8


@click.command("sim")
@db_option
@click.option("--script", "script_file", type=click.File("rb"),
              help="Play this keypad script in the window (clicks, drags, simulated time); read as 'banker script' reads one (UTF-8, within its size and line limits).")
@click.option("--screenshot", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the window as PNG at the end and quit (headless where there is no display).")
@click.option("--scale", type=click.IntRange(SMALLEST_SCALE, LARGEST_SCALE), default=None,
              help="Desktop pixels per OLED pixel, 2-8 (the whole window scales with it). "
                   "[default: 3, or 2 if that does not fit the screen]")
@click.option("--speed", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Play the --script at a pace you can watch: 1 is a person's pace, 2 twice as fast. "
                   "[default: at once]")
@click.option("--mute", is_flag=True, help="No sound.")
@pin_option
@click.option("--web/--no-web", "web", cls=Pair,
              help="Serve the table page (docs/web.md) for the game in the window. [default: the config's "
                   "web.enabled, off]")
def sim_command(db: Path | None, script_file, screenshot: Path | None, scale: int | None, speed: float | None,
                mute: bool, pin: str | None, web: bool | None) -> None:
    """Open the banker unit in a window and play: click or type the keys, drag the cards.

    It plays the game in the ledger (--db), so a game played here goes on
    next time; a ledger that was never used gets a demo game with four
    players. With --script it plays a keypad script in the window (with no
    demo players and, without --db, a fresh in-memory game, like 'banker
    script'): exit 1 at the first failing expect; --speed plays it at a pace
    you can follow. With --screenshot it saves the window at the end and
    quits (at once, whatever --speed says); with no display it then runs
    headless.
    """
    lines = _read_lines(script_file)
    run = _run_of(lines, screenshot, speed, mute)
    if not run.headless:
        _say_starting()
    desktop = _simulator(run.headless)
    with _ledger(db, run) as ledger:
        sim = _window(desktop, ledger, run, scale)
        with sim, _table_page(ledger, sim.shell, web):
            _greet(sim, desktop, ledger, run)
            failure, finished = _play(sim, lines, script_file, speed if run.watched else None, pin)
            if finished and not run.headless:
                _say_finished(sim, lines, _name_of(script_file), failure)
            _leave(sim, screenshot)
    if failure is not None:
        if run.headless:
            fail(f"{_name_of(script_file)}: {failure}", 1)
        sys.exit(1)  # already said when it failed; the window stayed open to look at


class _Run(NamedTuple):
    """What the options make of this run of the window."""

    scripted: bool  # --script: a keypad script plays in it
    headless: bool  # --screenshot: saved at the end, drawn off screen where there is no display
    watched: bool  # --speed in a window: the script plays at a pace someone follows
    silent: bool  # no sound: --mute, a screenshot, or a script played at once


def _run_of(lines, screenshot: Path | None, speed: float | None, mute: bool) -> _Run:
    """The run the options ask for (``lines``: the --script's, or None)."""
    scripted, headless = lines is not None, screenshot is not None
    watched = speed is not None and not headless
    return _Run(scripted, headless, watched, silent=mute or headless or (scripted and not watched))


def _read_lines(script_file):
    """The --script's lines, or None without one: read a line at a time, within the limits (exit 2 naming the
    limit), never all at once."""
    if script_file is None:
        return None
    from banker_cli.script_cli import read_script

    return read_script(script_file, _name_of(script_file))


def _simulator(headless: bool):
    """The simulator's package (firmware_sim.desktop), set to draw off screen for a --screenshot where there is
    no display; exit 3 without pygame, or without a display to open a window on."""
    try:
        from firmware_sim import desktop
    except ImportError as exc:  # SimulatorMissing: pygame is the sim extra
        fail(str(exc), NO_DISPLAY)
    problem = desktop.display_problem()
    if problem is not None:
        if not headless:
            fail(problem, NO_DISPLAY)
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    return desktop


def _ledger(db: Path | None, run: _Run):
    """The ledger the window plays: --db's (or the default one), but a fresh in-memory game for a script
    without --db, as 'banker script' plays one."""
    if run.scripted and db is None:
        from runtime.ledger import SqliteLedger

        return SqliteLedger(":memory:")
    return open_ledger(db)


def _window(desktop, ledger, run: _Run, scale: int | None):
    """The simulator on ``ledger`` as the config sets it up (a screenshot at scale 3 unless --scale says): no
    auction clock for a script (it reads the screen as drawn), the voice only where someone listens (exit 3 if
    no window opens)."""
    config = current_config()
    try:
        return desktop.DesktopSim(ledger, scale=3 if run.headless and scale is None else scale,
                                  sound=not run.silent, digits=config.display.digits,
                                  auction_seconds=None if run.scripted else config.auction_seconds,
                                  voice=config.voice if not run.scripted or run.watched else None,
                                  language=config.language)
    except desktop.NoDisplay as exc:
        fail(str(exc), NO_DISPLAY)


def _greet(sim, desktop, ledger, run: _Run) -> None:
    """What the terminal hears as the window opens: why there is no sound where sound was wanted, and that a
    ledger never used got its demo game (not for a script, which plays with no demo players)."""
    if sim.buzzer.problem and not run.silent:
        click.echo(f"banker: {shown(sim.buzzer.problem)}", err=True)
    if not run.scripted and desktop.seed_demo(ledger):
        click.echo("banker: a new ledger: a demo game with Alice, Bob, Cleo and Dan at 15M each", err=True)


def _leave(sim, screenshot: Path | None) -> None:
    """The end of the command's own steps: save the --screenshot, or hand the window over to the player until
    they close it."""
    if screenshot is not None:
        sim.screenshot(screenshot)
    elif sim.running:
        sim.clock.thaw()
        sim.run()


#: Said on stderr before the window's first, slow steps (a start with --screenshot, headless, says nothing).
STARTING = ("banker: starting the simulator window... (the first start can take several seconds: Python compiles "
            "and loads pygame and the simulator, and a new ledger gets its demo game; later starts are quicker)")


def _say_starting() -> None:
    """Say at once what the next seconds are spent on (pygame's import, compiled the first time, the window, a
    demo game), where a window can open: without pygame or a display the command says only that (in one line,
    :func:`firmware_sim.desktop.display_problem`'s, found once pygame is loaded)."""
    from importlib.util import find_spec

    display = os.environ.get("SDL_VIDEODRIVER") or os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    if find_spec("pygame") is not None and (display or not sys.platform.startswith("linux")):
        click.echo(STARTING, err=True)


def _name_of(file) -> str:
    """How a script file is named in messages (``<stdin>`` for ``-``)."""
    return file.name if isinstance(file.name, str) else "<stdin>"


@contextlib.contextmanager
def _table_page(ledger, shell, web: bool | None):
    """The table page for the window's game while it is open, when asked for (--web, or [web] enabled)."""
    from banker_cli.common import current_config

    config = current_config()
    if not (config.web.enabled if web is None else web):
        yield None
        return
    from web import serve_in_background

    try:
        page = serve_in_background(ledger, config, post=shell.post, clock=shell.clock)
    except OSError as exc:
        fail(f"the table page can't listen on {config.web.host}:{config.web.port}: {exc.strerror or exc}", 3)
    shell.on_effect = page.on_effect
    click.echo(f"banker: the table page: {shown(page.url)}", err=True)  # a desktop's own terminal, not a log
    try:
        yield page
    finally:
        page.close()


def _say_finished(sim, lines, name: str, failure) -> None:
    """The script has ended and the window stays open to play on: say so on the terminal and on the window."""
    from banker.script.syntax import ACTIONS
    from firmware_sim.desktop.window import SCRIPT_FINISHED, SCRIPT_STOPPED
    from banker.text.words import plural

    if failure is not None:
        click.echo(f"banker: {shown(name)}: {shown(failure)}; the window plays on from there (close it to quit)",
                   err=True)
        sim.tell(SCRIPT_STOPPED, line=failure.line)
        return
    held = sum(not isinstance(line.step, ACTIONS) for line in lines)
    click.echo(f"banker: {shown(name)}: finished, {plural(held, 'expectation')} held; the window plays on "
               f"(close it to quit)", err=True)
    sim.tell(SCRIPT_FINISHED)


def _play(sim, lines, script_file, speed: float | None, pin: str | None = None):
    """Run the script's steps in ``sim`` (at ``speed``, watched): (the first failed expectation or None, whether
    a script ran to its end or its first failed expectation).

    A window closed while the script plays ends it quietly.
    """
    if lines is None:
        sim.frame()
        return None, False
    from firmware_sim.window_backend import WindowBackend, WindowClosed

    try:
        failure = script_run.run(lines, WindowBackend(sim, speed=speed, pin=pin))
    except WindowClosed:
        return None, False
    except BankerError as exc:
        from banker_cli.common import exit_code

        code = exit_code(exc)
        fail(f"{_name_of(script_file)}: {exc}", 2 if code == 1 else code)  # 4: the banker's PIN
    sim.frame()
    return failure, True


if __name__ == "__main__":  # pragma: no cover
    sim_command(prog_name="banker sim")
