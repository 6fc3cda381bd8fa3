"""``banker run`` and ``banker doctor``: the unit on its hardware (the real buses, or the drivers on simulated chips).

``run`` and ``doctor`` use the real buses (``--backend pi``) or the same
drivers on simulated chips (``--backend hw-sim``); both read the device
config (``--config FILE`` or ``$BANKER_CONFIG``, docs/config.md). The test
port's client of ``banker script --port`` is :mod:`banker_cli.port_script`,
imported only by a script on a port: ``run`` on the Pi loads no simulator.
"""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import click

from banker.errors import BankerError
from banker.text.words import plural

from .options import Pair
from .common import (
    UNUSABLE, config_option, current_config, db_option, fail, failing, open_ledger, shown,
)

from .backends import RUN_BACKENDS as BACKENDS


def backend_option(func):
    return click.option("--backend", type=click.Choice(BACKENDS), default="pi", show_default=True,
                        help="pi: the real buses and pins; hw-sim: the same drivers on simulated chips "
                             "(checks the config without the hardware).")(func)


def hardware(backend: str, config):
    """The unit's hardware named ``backend``, from the one backend table (:data:`banker_cli.backends.HARDWARE`)."""
    from .backends import hardware as from_table

    return from_table(backend, config)


# -- doctor -------------------------------------------------------------------------------


@click.command("doctor")
@config_option
@backend_option
def doctor_command(backend: str) -> None:
    """Check each configured device and say what was found; exit 1 if any is missing."""
    from runtime.device import doctor

    config = current_config()
    with hardware(backend, config) as hw:
        report = list(doctor(config, hw, simulated=backend == "hw-sim"))
    if config.backups_second_folder:
        report.append(_second_folder_line(config.backups_second_folder))
    for name, ok, sentence in report:
        click.echo(f"{'ok  ' if ok else 'FAIL'}  {shown(name):<17} {shown(sentence)}")
    missing = [name for name, ok, _ in report if not ok]
    if missing:
        hint = (" To check the config and the drivers without the hardware, run 'banker doctor --backend hw-sim'."
                if backend == "pi" else "")
        fail(f"{len(missing)} of {len(report)} devices {'is' if len(missing) == 1 else 'are'} missing or misconfigured:"
             f" {', '.join(missing)} (see docs/wiring.md).{hint}", 1)
    where = ("on simulated chips: the config and the drivers work; run it without --backend hw-sim on the Pi"
             if backend == "hw-sim" else "on this Pi")
    click.echo(f"All {len(report)} devices answer {where}.")


def _second_folder_line(folder: str) -> tuple[str, bool, str]:
    """The doctor's line for ``[backups] second_folder``: there, writable, on another device than the ledger
    (an unmounted stick's empty mount point is on the SD card), room for its backups."""
    from store.backup_schedule import second_folder_problem

    from .common import resolve_db

    where = Path(folder).expanduser()
    problem = second_folder_problem(where, resolve_db(None), space=True)
    if problem is not None:
        return "backup folder 2", False, f"{problem}; backups still go beside the ledger (docs/backups.md)"
    return "backup folder 2", True, f"{where}: writable, on its own device, room for its backups"


# -- run ----------------------------------------------------------------------------------


def _show_refusal(exc, backend: str, config, stop: threading.Event, seconds: float | None) -> None:
    """The writer refused the ledger: say so on the unit's own screen and stay until stopped (a service that
    exited at once would start again every two seconds with a dark screen); then the command exits 3."""
    from banker.unit.views import ledger_refused
    from runtime.device import open_device
    from runtime.sd_notify import hold
    from store.trust import OldLedger

    click.echo(f"banker: refusing to play, and saying so on the unit's screen until stopped: {shown(str(exc))}",
               err=True)
    try:
        hw = hardware(backend, config)
        with hw:
            device = open_device(config, hw)
            with device:
                device.display.show(ledger_refused(isinstance(exc, OldLedger)))
                hold(stop, seconds)  # up and alive to systemd meanwhile (runtime.sd_notify)
    except BankerError as problem:  # no display either: the message above is all there is
        click.echo(f"banker: the screen can't say so: {shown(str(problem))}", err=True)


@click.command("run")
@config_option
@backend_option
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True, max=10**9), default=None,
              help="Stop after this many seconds (for trials); default: run until stopped.")
@click.option("--web/--no-web", "web", cls=Pair,
              help="Serve the table page (docs/web.md) beside the unit. [default: the config's web.enabled, off]")
@db_option
def run_command(backend: str, seconds: float | None, web: bool | None, db: Path | None) -> None:
    """Run the unit on its hardware until stopped (SIGTERM or Ctrl-C).

    Cards, keys, the screen and the buzzer are the configured devices; every
    transaction goes to the ledger (--db, else $BANKER_DB, else the config's
    unit.db, else the user data folder). With the serial test port
    configured, a computer can drive the unit with 'banker script FILE --port URL'.
    With --web (or the config's [web] enabled) it also serves the table page
    on the config's web.host and web.port; FN K shows its QR code.
    """
    from runtime.collector import Collector
    from runtime.device import open_device
    from runtime.sd_notify import service_notifier
    from runtime.shell import Shell

    config = current_config()
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    ledger = open_ledger(db, on_refused=lambda exc: _show_refusal(exc, backend, config, stop, seconds))
    hw = hardware(backend, config)
    with ledger, hw:
        with failing():
            _first_game_settings(ledger, config)
        try:
            device = open_device(config, hw)
        except BankerError as exc:
            fail(str(exc), UNUSABLE)
        from runtime.speaker import open_speaker

        device.voice = voice = open_speaker(config.voice)  # None unless [voice] enabled (docs/voice.md)
        with device:
            shell = Shell(ledger, display=device.display, buzzer=device.buzzer, clock=hw.clock, now=hw.clock(),
                          sleep_after=config.sleep_after, auction_seconds=config.auction_seconds, voice=voice,
                          language=config.language, collector=Collector(clock=hw.clock))
            page = _table_page(ledger, config, shell, web)
            device.keypad.start(shell.post)
            device.slots.start(shell.post, interval_s=config.poll_interval)
            if seconds is not None:
                timer = threading.Timer(seconds, stop.set)
                timer.daemon = True
                timer.start()
            game = ledger.game()
            click.echo(f"banker: running on {backend} (game {game.id}, {plural(len(game.cards), 'card')})", err=True)
            if config.serial_url:
                from drivers.serial_port import SerialTestPort
                from runtime.script_shell import shell_target

                port = SerialTestPort(config.serial_url, shell_target(shell), baudrate=config.serial_baudrate,
                                      serial_for_url=hw.serial_for_url())
                device.serial_port = port
                shell.run(stop, poll=(port.poll,), service=service_notifier())
            else:
                shell.run(stop, service=service_notifier())
            if page is not None:
                page.close()
    click.echo("banker: stopped", err=True)


def _table_page(ledger, config, shell, web: bool | None):
    """The table page beside the unit when asked for (--web, or [web] enabled); None when not."""
    if not (config.web.enabled if web is None else web):
        return None
    try:
        from web import serve_in_background
    except ImportError as exc:
        fail(f"the table page can't be served: {exc}", UNUSABLE)
    try:
        page = serve_in_background(ledger, config, post=shell.post, clock=shell.clock)
    except OSError as exc:
        fail(f"the table page can't listen on {config.web.host}:{config.web.port}: {exc.strerror or exc}", UNUSABLE)
    shell.on_effect = page.on_effect
    where = page.url.split("?", 1)[0]  # the token stays off the log: FN K shows the whole address as a QR code
    click.echo(f"banker: the table page is served at {shown(where)} (FN K on the keypad shows its code)", err=True)
    return page


def _first_game_settings(ledger, config) -> None:
    """A ledger with no transactions yet takes the config's house rules and board (``[unit] edition``) for its
    game."""
    from banker.frozen import replace

    settings = ledger.game().settings
    wanted = replace(settings, start_balance=config.start_balance, go_salary=config.go_salary,
                     allow_negative=config.allow_negative, edition=config.edition)
    if ledger.game().last is None and not ledger.transactions() and settings != wanted:
        ledger.new_game(wanted)


def script_on_port(*args, **options) -> None:
    """:func:`banker_cli.port_script.script_on_port` (kept here, where it was, for its callers)."""
    from .port_script import script_on_port as play

    play(*args, **options)
