"""The ``banker sim`` command: the desktop simulator's window, or a keypad script played in it headless.

Register it with ``cli.add_command(sim_command, "sim")``; ``python -m
banker_cli.sim`` runs it on its own.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from banker import script as scripts
from banker.errors import BankerError, ScriptError
from banker_cli.common import db_option, fail, open_ledger

#: Exit code when no window can be opened (no display).
NO_DISPLAY = 2


@click.command("sim")
@db_option
@click.option("--script", "script_file", type=click.File("r"),
              help="Play this keypad script in the window (clicks, drags, simulated time).")
@click.option("--screenshot", type=click.Path(dir_okay=False, path_type=Path),
              help="Save the window as PNG at the end and quit (headless where there is no display).")
@click.option("--scale", type=click.IntRange(1, 8), default=3, show_default=True,
              help="Desktop pixels per OLED pixel (the whole window scales with it).")
@click.option("--mute", is_flag=True, help="No sound.")
def sim_command(db: Path | None, script_file, screenshot: Path | None, scale: int, mute: bool) -> None:
    """Open the banker unit in a window and play: click or type the keys, drag the cards.

    It plays the game in the ledger (--db), so a game played here goes on
    next time; a ledger that was never used gets a demo game with four
    players. With --script it plays a keypad script in the window (with no
    demo players and, without --db, a fresh in-memory game, like 'banker
    script'): exit 1 at the first failing expect. With --screenshot it saves
    the window at the end and quits; with no display it then runs headless.
    """
    lines = None
    if script_file is not None:
        try:
            lines = scripts.parse(script_file.read())
        except ScriptError as exc:
            fail(f"{script_file.name}: {exc}", 2)
    headless = screenshot is not None
    from firmware_sim.desktop import DesktopSim, NoDisplay, display_problem, seed_demo

    if display_problem() is not None:
        if not headless:
            fail(display_problem(), NO_DISPLAY)
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from runtime.ledger import SqliteLedger

    if lines is not None and db is None:
        ledger = SqliteLedger(":memory:")
    else:
        ledger = open_ledger(db)
    with ledger:
        try:
            sim = DesktopSim(ledger, scale=scale, sound=not (mute or headless or lines is not None))
        except NoDisplay as exc:
            fail(str(exc), NO_DISPLAY)
        with sim:
            if lines is None and seed_demo(ledger):
                click.echo("banker: a new ledger: a demo game with Alice, Bob, Cleo and Dan at 15M each", err=True)
            failure = _play(sim, lines, script_file)
            if failure is not None and not headless:
                click.echo(f"banker: {script_file.name}: {failure}", err=True)
            if headless:
                sim.screenshot(screenshot)
            else:
                sim.clock.thaw()
                if sim.buzzer.problem and not mute and lines is None:
                    click.echo(f"banker: {sim.buzzer.problem}", err=True)
                sim.run()
    if failure is not None:
        if headless:
            fail(f"{script_file.name}: {failure}", 1)
        sys.exit(1)  # already said when it failed; the window stayed open to look at


def _play(sim, lines, script_file):
    """Run the script's steps in ``sim``; the first failed expectation (or None)."""
    if lines is None:
        sim.frame()
        return None
    from firmware_sim.window_backend import WindowBackend

    try:
        failure = scripts.run(lines, WindowBackend(sim))
    except BankerError as exc:
        fail(f"{script_file.name}: {exc}", 2)
    sim.frame()
    return failure


if __name__ == "__main__":  # pragma: no cover
    sim_command(prog_name="banker sim")
