"""The table page's server in a thread of its own, beside a running unit (or alone, for ``banker web``).

:func:`serve_in_background` starts it and returns a :class:`PageServer`
handle once it listens: its ``url`` (with the token), ``renew_token()``,
``on_effect`` (give it to :class:`runtime.shell.Shell` as ``on_effect``: it
carries out :class:`banker.events.RenewWebToken`) and ``close()``. With
``post`` (the shell's :meth:`~runtime.shell.Shell.post`) it tells the unit
its address as a :class:`banker.events.WebAddress`, again after a renewal,
and ``None`` once closed, so ``FN K`` can show it.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import socket
import threading
import time
from collections.abc import Callable

from banker.events import RenewWebToken, WebAddress

from .server import WebServer
from .source import FileSource, SnapshotSource
from .tokens import TokenStore, token_path

#: Addresses that mean "every interface": the page's URL then names this machine's LAN address.
ANY_ADDRESS = ("", "0.0.0.0", "::")


def lan_address() -> str:
    """This machine's address on its local network (the one a route out would use); 127.0.0.1 if none."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: nothing is sent, the kernel only picks a route
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def page_url(host: str, port: int, token: str) -> str:
    """The URL a phone opens: ``http://HOST:PORT/?t=TOKEN`` (for a wildcard host, the LAN address)."""
    shown = lan_address() if host in ANY_ADDRESS else host
    try:
        if ipaddress.ip_address(shown).version == 6:
            shown = f"[{shown}]"
    except ValueError:
        pass  # a host name
    return f"http://{shown}:{port}/?t={token}"


def _source_and_tokens(ledger_or_path, editions=None):
    """The read side for a ledger (a :class:`runtime.ledger.Ledger` or a file path) and its token store."""
    path = getattr(ledger_or_path, "path", ledger_or_path)
    if hasattr(ledger_or_path, "game") and str(path) == ":memory:":
        return SnapshotSource(ledger_or_path), TokenStore(None)
    editions = editions if editions is not None else getattr(ledger_or_path, "editions", None)
    return FileSource(os.fspath(path), editions=editions), TokenStore(token_path(path))


class PageServer:
    """A running table page (see :func:`serve_in_background`); a context manager."""

    def __init__(self, ledger_or_path, host: str, port: int, *, post: Callable | None = None,
                 clock: Callable[[], float] = time.monotonic, **server_options) -> None:
        source, self.tokens = _source_and_tokens(ledger_or_path)
        self.server = WebServer(source, self.tokens, **server_options)
        self.host, self._post, self._clock = host, post, clock
        self.port: int | None = None
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._stopped: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, args=(port,), name="banker-web", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            self._thread.join()
            raise self._error
        self._announce(self.url)

    @property
    def url(self) -> str:
        """The page's URL with its token, as the QR code and ``banker web`` give it."""
        return page_url(self.host, self.port, self.tokens.current())

    def renew_token(self) -> str:
        """A new token: every open page is closed (and refused from now on); returns the new URL."""
        self.tokens.renew()
        if self._loop.is_running():
            self._loop.call_soon_threadsafe(self.server.check_token)
        url = self.url
        self._announce(url)
        return url

    def on_effect(self, effect) -> None:
        """Carry out an effect the shell has no device for (``Shell(..., on_effect=server.on_effect)``)."""
        if isinstance(effect, RenewWebToken):
            self.renew_token()

    def close(self) -> None:
        """Stop serving: the pages lose the unit; the unit is told there is no page any more."""
        if self._thread.is_alive() and self._stopped is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)
            self._thread.join(timeout=10)
            self._announce(None)

    def _announce(self, url: str | None) -> None:
        if self._post is not None:
            self._post(WebAddress(url, self._clock()))

    def _run(self, port: int) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._serve(port))
        finally:
            self._loop.close()

    async def _serve(self, port: int) -> None:
        self._stopped = asyncio.Event()
        try:
            self.port = await self.server.start(self.host, port)
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            await self._stopped.wait()
        finally:
            await self.server.stop()

    def __enter__(self) -> PageServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def serve_in_background(ledger_or_path, config=None, *, post: Callable | None = None,
                        clock: Callable[[], float] = time.monotonic, host: str | None = None,
                        port: int | None = None, **server_options) -> PageServer:
    """Serve the table page for ``ledger_or_path`` from a thread; returns once it listens.

    ``ledger_or_path``: the unit's :class:`runtime.ledger.Ledger` (its file
    is read by a second, read-only store; a ledger in memory by its
    snapshots) or a ledger file's path. ``config``: a
    :class:`runtime.config.WebConfig` (or a whole :class:`runtime.config.Config`)
    for the address; ``host``/``port`` override it. ``post``: the shell's
    ``post``, told the address (:class:`banker.events.WebAddress`, with
    ``clock()`` as its time). Raises :class:`OSError` if the port is taken,
    :class:`banker.errors.LedgerError` if the ledger can't be read.
    """
    from runtime.config import WebConfig

    web_config = getattr(config, "web", config) or WebConfig()
    return PageServer(ledger_or_path, host if host is not None else web_config.host,
                      port if port is not None else web_config.port, post=post, clock=clock, **server_options)
