"""``banker run`` and ``banker doctor``: the unit on its hardware (the Pi, or simulated chips with ``--backend hw-sim``)."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import click

from runtime.config import Config
from banker.errors import BankerError
from banker.records import GameSettings

from .common import db_option, fail, open_ledger, read_config

BACKENDS = ("pi", "hw-sim")


def config_option(func):
    return click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path), envvar="BANKER_CONFIG",
                        help="The device's TOML config (docs/config.md). [default: built-in defaults; env: BANKER_CONFIG]")(func)


def backend_option(func):
    return click.option("--backend", type=click.Choice(BACKENDS), default="pi", show_default=True,
                        help="pi: the real buses and pins; hw-sim: the same drivers on simulated chips.")(func)


def hardware(backend: str, config: Config, *, realtime: bool = True):
    if backend == "hw-sim":
        from firmware_sim.hw_sim import SimulatedHardware

        return SimulatedHardware(config, realtime=realtime)
    from runtime.device import PiHardware

    return PiHardware()


@click.command("doctor")
@config_option
@backend_option
def doctor_command(config_path: Path | None, backend: str) -> None:
    """Check each configured device and say what was found; exit 1 if any is missing."""
    from runtime.device import doctor

    config = read_config(config_path)
    hw = hardware(backend, config)
    with hw:
        report = doctor(config, hw)
    for name, ok, what in report:
        click.echo(f"{'ok  ' if ok else 'FAIL'}  {name:<17} {what}")
    if not all(ok for _, ok, _ in report):
        fail("some devices are missing or misconfigured (see docs/wiring.md)", 1)


@click.command("run")
@config_option
@backend_option
@click.option("--seconds", type=float, default=None, help="Stop after this many seconds (for trials); default: run until stopped.")
@db_option
def run_command(config_path: Path | None, backend: str, seconds: float | None, db: Path | None) -> None:
    """Run the unit on its hardware until stopped (SIGTERM or Ctrl-C).

    Cards, keys, the screen and the buzzer are the configured devices; every
    transaction goes to the ledger (--db, else the config's unit.db, else the
    user data folder). With the serial test port configured, a computer can
    drive the unit with 'banker script FILE --port URL'.
    """
    from runtime.device import open_device
    from runtime.shell import Shell
    
    config = read_config(config_path)
    ledger = open_ledger(db if db is not None else (Path(config.db) if config.db else None))
    hw = hardware(backend, config)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    with ledger, hw:
        _first_game_settings(ledger, config)
        try:
            device = open_device(config, hw)
        except BankerError as exc:
            fail(str(exc), 3)
        with device:
            shell = Shell(ledger, display=device.display, buzzer=device.buzzer, clock=hw.clock, now=hw.clock(),
                          sleep_after=config.sleep_after)
            device.keypad.start(shell.post)
            device.slots.start(shell.post, interval_s=config.poll_interval)
            if seconds is not None:
                timer = threading.Timer(seconds, stop.set)
                timer.daemon = True
                timer.start()
            click.echo(f"banker: running on {backend} (game {ledger.game().id}, {len(ledger.cards())} cards)", err=True)
            if config.serial_url:
                from drivers.serial_port import SerialTestPort, ShellTarget, run_shell_with_port

                port = SerialTestPort(config.serial_url, ShellTarget(shell, ledger), baudrate=config.serial_baudrate,
                                      serial_for_url=hw.serial_for_url())
                device.serial_port = port
                run_shell_with_port(shell, port, stop)
            else:
                shell.run(stop)
    click.echo("banker: stopped", err=True)


def _first_game_settings(ledger, config: Config) -> None:
    """A ledger with no transactions yet takes the config's house rules for its game."""
    wanted = GameSettings(config.start_balance, config.go_salary, config.allow_negative)
    settings = ledger.game().settings
    if not ledger.transactions() and (settings.start_balance, settings.go_salary, settings.allow_negative) != (
        wanted.start_balance, wanted.go_salary, wanted.allow_negative):
        ledger.new_game(GameSettings(wanted.start_balance, wanted.go_salary, wanted.allow_negative, settings.edition))
