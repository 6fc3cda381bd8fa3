"""The ``banker web`` command: serve the table page for a ledger until stopped (docs/web.md).

Registered lazily as ``banker web`` from ``banker_cli.web_cli:web_command``;
``python -m banker_cli.web_cli`` runs it on its own.
"""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import click

from banker.errors import BankerError
from banker_cli.common import db_option, fail, read_config, resolve_db, shown
from banker_cli.progress import progress_bar
from banker_cli.terminal_qr import draw_qr


@click.command("web")
@db_option
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path),
              help="The device config: its [web] host and port, its unit.db (docs/config.md).")
@click.option("--host", help="Address to listen on. [default: the config's web.host, else 127.0.0.1: "
                             "this computer only; 0.0.0.0 for every network]")
@click.option("--port", type=click.IntRange(0, 65535), help="TCP port (0: any free one). [default: web.port, else 8080]")
@click.option("--qr", is_flag=True, help="Draw the address as a QR code under it, for a phone's camera.")
def web_command(db: Path | None, config_path: Path | None, host: str | None, port: int | None, qr: bool) -> None:
    """Serve the table page for the ledger: every phone and the TV see the game, live.

    The first line printed is the page's address with its access token;
    open it (or scan the unit's FN K code, or --qr's in the terminal). A ledger of an earlier release
    is read from its game's start once, with a bar on a terminal. The page only reads the ledger,
    so it runs beside a unit that is playing on it. Ctrl-C stops it.
    """
    from store.hot_rows import collector_paused

    with collector_paused():  # the start makes modules, classes and the state, which live on: collecting is waste
        server, path = _serve(db, config_path, host, port)
    stop = threading.Event()
    main = threading.current_thread() is threading.main_thread()
    # the handler before the lines: whoever reads them may stop it at once
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set()) if main else None
    try:
        url = server.url
        click.echo(shown(url))
        if qr:
            _draw_code(url, waiting=server.waiting_for_network)
        if server.waiting_for_network:
            click.echo("banker: no network yet: phones can't open the page until this computer has a LAN address "
                       "(the unit's FN K shows the code then)", err=True)
        click.echo(f"banker: serving the table page for {shown(path)}; Ctrl-C stops it", err=True)
        while not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
        server.close()


def _draw_code(url: str, *, waiting: bool) -> None:
    """``url``'s QR code on stdout (the same code as ``FN K``'s), and why a phone can't open a loopback one."""
    draw_qr(url, error="l")
    if not waiting and url.startswith(("http://127.", "http://[::1]")):  # (waiting: web_command says why)
        click.echo("banker: the code opens the page on this computer only: phones need --host 0.0.0.0 (or the "
                   "config's [web] host) and this computer on the network", err=True)


def _serve(db: Path | None, config_path: Path | None, host: str | None, port: int | None):
    """(the page served from its thread, listening; the ledger's path), or a user's mistake said and its exit code
    (docs/cli.md)."""
    from web import serve_in_background

    config = read_config(config_path)
    path = resolve_db(db if db is not None else (Path(config.db) if config.db else None))
    if not Path(path).expanduser().exists():
        fail(f"there is no ledger at {path}: play a game first (banker run, banker sim)", 3)
    try:
        with progress_bar("reading the ledger") as advance:  # an old ledger's long game, on a terminal
            return serve_in_background(path, config, host=host, port=port, progress=advance), path
    except BankerError as exc:
        fail(str(exc), 3)
    except OSError as exc:
        fail(f"cannot listen on {host or config.web.host}:{port if port is not None else config.web.port}: "
             f"{exc.strerror or exc}", 3)


if __name__ == "__main__":  # pragma: no cover
    web_command(prog_name="banker web")
