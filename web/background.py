"""The table page's server in a thread of its own, beside a running unit (or alone, for ``banker web``).

:func:`serve_in_background` starts it and returns a :class:`PageServer`
handle once it listens: its ``url`` (with the token), ``renew_token()``,
``on_effect`` (give it to :class:`runtime.shell.Shell` as ``on_effect``: it
carries out :class:`banker.unit.events.RenewWebToken` and sends a live auction's
:class:`banker.unit.events.LiveState` to the pages) and ``close()``. With
``post`` (the shell's :meth:`~runtime.shell.Shell.post`) it tells the unit
its address as a :class:`banker.unit.events.WebAddress`, again after a renewal,
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

from .server import WebServer
from .source import FileSource, SnapshotSource
from .tokens import TokenStore, token_path

#: Addresses that mean "every interface": the page's URL then names this machine's LAN address.
ANY_ADDRESS = ("", "0.0.0.0", "::")
#: Seconds between two looks at the LAN address (a Pi that booted before its Wi-Fi gets one later).
ADDRESS_SECONDS = 2.0


def lan_address() -> str | None:
    """This machine's address on its local network (the one a route out would use), worked out now; None if none.

    Nothing is sent: the kernel only picks the route to a TEST-NET address.
    With no route yet (the Wi-Fi still joining) there is none.
    """
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: nothing is sent, the kernel only picks a route
        return probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()


def _usable(address: str | None) -> str | None:
    """``address`` if a phone could reach it (not loopback, not the wildcard)."""
    try:
        ip = ipaddress.ip_address(address or "")
    except ValueError:
        return None
    return None if ip.is_loopback or ip.is_unspecified else address


def _url(host: str, port: int, token: str) -> str:
    try:
        if ipaddress.ip_address(host).version == 6:
            host = f"[{host}]"
    except ValueError:
        pass  # a host name
    return f"http://{host}:{port}/?t={token}"


def phone_url(host: str, port: int, token: str, *, lan: Callable[[], str | None] = lan_address) -> str:
    """The address ``FN K`` shows as a code: for a wildcard host the LAN address worked out now (``lan()``).

    With no LAN address yet it is the wildcard itself (``http://0.0.0.0:8080/...``),
    which ``FN K`` shows as "No network yet" (:func:`banker.unit.views.page_reach`),
    never a loopback address a phone can't open.
    """
    if host in ANY_ADDRESS:
        host = _usable(lan()) or ("::" if host == "::" else "0.0.0.0")
    return _url(host, port, token)


def page_url(host: str, port: int, token: str, *, lan: Callable[[], str | None] = lan_address) -> str:
    """The URL ``banker web`` prints: :func:`phone_url`, but with no network yet 127.0.0.1 (it opens here)."""
    if host in ANY_ADDRESS and _usable(lan()) is None:
        return _url("::1" if host == "::" else "127.0.0.1", port, token)
    return phone_url(host, port, token, lan=lan)


def _source_and_tokens(ledger_or_path, language: str | None = None):
    """The read side for a ledger (a :class:`runtime.ledger.Ledger` or a file path) and its token store;
    ``language``: the config's ``[unit] language``."""
    path = getattr(ledger_or_path, "path", ledger_or_path)
    if hasattr(ledger_or_path, "game") and str(path) == ":memory:":
        return SnapshotSource(ledger_or_path, language), TokenStore(None)
    editions = getattr(ledger_or_path, "editions", None)
    return FileSource(os.fspath(path), editions=editions, language=language), TokenStore(token_path(path))


class PageServer:
    """A running table page (see :func:`serve_in_background`); a context manager."""

    def __init__(self, ledger_or_path, host: str, port: int, *, post: Callable | None = None,
                 clock: Callable[[], float] = time.monotonic, lan: Callable[[], str | None] = lan_address,
                 language: str | None = None, **server_options) -> None:
        source, self.tokens = _source_and_tokens(ledger_or_path, language)
        self.server = WebServer(source, self.tokens, **server_options)
        self.host, self._post, self._clock, self._lan = host, post, clock, lan
        self._announced: str | None = None
        self._announcing = threading.Lock()  # a renewal's new address is never overtaken by the old one
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
        self._announce(self.phone_url)

    @property
    def url(self) -> str:
        """The page's URL with its token as ``banker web`` prints it, worked out now (:func:`page_url`)."""
        return page_url(self.host, self.port, self.tokens.current(), lan=self._lan)

    @property
    def phone_url(self) -> str:
        """The URL ``FN K`` shows as a code, worked out now (:func:`phone_url`)."""
        return phone_url(self.host, self.port, self.tokens.current(), lan=self._lan)

    @property
    def waiting_for_network(self) -> bool:
        """Served on every address, but this machine has no LAN address yet: no phone can open the page."""
        return self.host in ANY_ADDRESS and _usable(self._lan()) is None

    def renew_token(self) -> str:
        """A new token: every open page is closed (and refused from now on); returns the new URL."""
        with self._announcing:
            self.tokens.renew()
            if self._loop.is_running():
                self._loop.call_soon_threadsafe(self.server.check_token)
            self._announce(self.phone_url)
        return self.url

    def on_effect(self, effect) -> None:
        """Carry out an effect the shell has no device for (``Shell(..., on_effect=server.on_effect)``)."""
        from banker.unit.events import LiveState, RenewWebToken  # loaded by the shell already; ``banker web`` never

        if isinstance(effect, RenewWebToken):
            self.renew_token()
        elif isinstance(effect, LiveState) and self._loop.is_running():
            self._loop.call_soon_threadsafe(self.server.publish_live, effect.data)

    def close(self) -> None:
        """Stop serving: the pages lose the unit; the unit is told there is no page any more."""
        if self._thread.is_alive() and self._stopped is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)
            self._thread.join(timeout=10)
            self._announce(None)

    def _announce(self, url: str | None) -> None:
        self._announced = url
        if self._post is not None:
            from banker.unit.events import WebAddress  # the unit's events: ``banker web`` (no unit) never loads them

            self._post(WebAddress(url, self._clock()))

    async def _follow_address(self) -> None:
        """Tell the unit its address again whenever it changes (the Wi-Fi came up, or moved)."""
        while True:
            await asyncio.sleep(ADDRESS_SECONDS)
            with self._announcing:
                url = self.phone_url
                if url != self._announced:
                    self._announce(url)

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
        follower = asyncio.get_running_loop().create_task(self._follow_address()) if self._post is not None else None
        try:
            await self._stopped.wait()
        finally:
            if follower is not None:
                follower.cancel()
            await self.server.stop()

    def __enter__(self) -> PageServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def serve_in_background(ledger_or_path, config=None, *, post: Callable | None = None,
                        clock: Callable[[], float] = time.monotonic, host: str | None = None,
                        port: int | None = None, lan: Callable[[], str | None] = lan_address,
                        **server_options) -> PageServer:
    """Serve the table page for ``ledger_or_path`` from a thread; returns once it listens.

    ``ledger_or_path``: the unit's :class:`runtime.ledger.Ledger` (its file
    is read by a second, read-only store; a ledger in memory by its
    snapshots) or a ledger file's path. ``config``: a
    :class:`runtime.config.WebConfig` (or a whole :class:`runtime.config.Config`)
    for the address; ``host``/``port`` override it. ``post``: the shell's
    ``post``, told the address for ``FN K`` (:class:`banker.unit.events.WebAddress`,
    with ``clock()`` as its time) at start, after a renewal, and whenever it
    changes (looked at every :data:`ADDRESS_SECONDS`); ``lan``: how this
    machine's LAN address is worked out (:func:`lan_address`; tests fake it). Raises :class:`OSError` if the port is taken,
    :class:`banker.errors.LedgerError` if the ledger can't be read.
    """
    from runtime.config import WebConfig

    web_config = getattr(config, "web", config) or WebConfig()
    return PageServer(ledger_or_path, host if host is not None else web_config.host,
                      port if port is not None else web_config.port, post=post, clock=clock, lan=lan,
                      language=getattr(config, "language", None), **server_options)
