"""The table page's HTTP server (aiohttp): the page, ``GET /api/state``, ``GET /api/events``, all behind the token.

Read-only by construction: the routes are three GETs (HEAD too), and no
handler can reach the unit's write path (it has only a read-only source).
Every other method is 405, every other path 404, and any request without
the token 401 (the token in ``?t=`` or ``Authorization: Bearer``, compared in
constant time). There is no file serving, so no path can climb out: the
page is one document with its style and script inlined, built once at start.

Limits (docs/web.md): :data:`MAX_CONNECTIONS` TCP connections (more get a
503 and are closed), :data:`MAX_STREAMS` event streams, requests of at most
:data:`MAX_LINE` bytes a line, :data:`MAX_HEADERS` headers and no body, idle
connections closed after :data:`IDLE_SECONDS`. The access log is our own:
method, path and status, never the query (the token) or a header; aiohttp's
error lines (a malformed request quotes its request line) pass :class:`Redact`.
The page, the state and the event stream are gzipped for a client that
takes gzip (:mod:`web.gzipped`).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import re
import time
import weakref
from http import HTTPStatus
from importlib import resources

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from banker.text.visible import shown

from .gzipped import Gzipped, GzipStream, Plain, accepts_gzip
from .tokens import TokenStore
from .view import live_view

log = logging.getLogger("banker.web")
#: aiohttp's own error lines (a malformed request, with its request line) go here, the token cut out.
http_log = logging.getLogger("banker.web.http")

MAX_CONNECTIONS = 48
MAX_STREAMS = 24
MAX_LINE = 4096
MAX_HEADERS = 32
IDLE_SECONDS = 20.0
#: Seconds between the source's polls (a commit shows on the pages within this, plus the network).
POLL_SECONDS = 0.2
#: Seconds between keep-alive comments on an event stream (the page counts a silent stream as lost).
HEARTBEAT_SECONDS = 10.0
#: Seconds a page may take to accept one event before its stream is closed (a phone gone to sleep).
WRITE_SECONDS = 10.0
#: States a slow page may fall behind before older ones are dropped (each state is whole).
STREAM_BACKLOG = 4

_CLOSE = object()
_UNAUTHORISED = ("The table page needs its access code: scan the QR code on the unit (FN K), "
                 "or use the address 'banker web' printed.\n")


def page_bytes() -> tuple[bytes, str]:
    """The page (HTML with its CSS and script inlined) and the Content-Security-Policy that allows exactly them."""
    static = resources.files("web") / "static"
    html = (static / "page.html").read_text(encoding="utf-8")
    css = (static / "page.css").read_text(encoding="utf-8")
    js = (static / "page.js").read_text(encoding="utf-8").replace(  # the Read aloud, in the page's own closure
        "  /*SPEECH*/", (static / "speech.js").read_text(encoding="utf-8").rstrip("\n"), 1)

    def sha(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    page = html.replace("/*STYLE*/", css).replace("/*SCRIPT*/", js)
    csp = (f"default-src 'none'; style-src {sha(css)}; script-src {sha(js)}; connect-src 'self'; img-src data:; "
           "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    return page.encode("utf-8"), csp


class Redact(logging.Filter):
    """Cuts tokens (``t=...``, ``Bearer ...`` and the current one) out of a log line and its traceback, and shows
    its control characters visibly (:func:`banker.text.visible.shown`): a request or a name can't drive the terminal."""

    PATTERN = re.compile(r"(t=|bearer\s+)[A-Za-z0-9_\-]+", re.IGNORECASE)

    def __init__(self) -> None:
        super().__init__()
        self.stores: weakref.WeakSet[TokenStore] = weakref.WeakSet()

    def _cut(self, text: str) -> str:
        text = self.PATTERN.sub(r"\1[token]", text)
        for tokens in list(self.stores):
            token = tokens._token  # the one in use, without touching its file
            if token:
                text = text.replace(token, "[token]")
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = shown(self._cut(record.getMessage())), ()  # a request's ESC can't reach a terminal
        if record.exc_info:
            record.exc_text = self._cut(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True


_REDACT = Redact()
http_log.addFilter(_REDACT)
log.addFilter(_REDACT)


def token_of(request: web.BaseRequest) -> str | None:
    """The token a request gives: ``?t=`` (the printed URL's form) or ``Authorization: Bearer``."""
    header = request.headers.get("Authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip()
    return request.query.get("t")


class Hub:
    """The open event streams: each a small queue of whole states, newest last."""

    def __init__(self) -> None:
        self.streams: set[asyncio.Queue] = set()

    def publish(self, message: bytes) -> None:
        for queue in self.streams:
            if queue.full():
                queue.get_nowait()  # a slow page skips a state: the next one is whole
            queue.put_nowait(message)

    def publish_live(self, message: bytes) -> None:
        """A live view (an auction's second): on a full queue the older live views go first, then the oldest state."""
        for queue in self.streams:
            if queue.full():
                waiting = [queue.get_nowait() for _ in range(queue.qsize())]
                kept = [m for m in waiting if m is _CLOSE or not m.startswith(b"event: live")]
                for m in kept[len(kept) - queue.maxsize + 1:] if len(kept) >= queue.maxsize else kept:
                    queue.put_nowait(m)
            queue.put_nowait(message)

    def close_all(self) -> None:
        for queue in self.streams:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(_CLOSE)


#: The headers every answer carries, the page's own and every error's (its CSP is stricter still).
SECURITY_HEADERS = {
    "Server": "banker",  # never aiohttp's version
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}
STRICT_CSP = "default-src 'none'; frame-ancestors 'none'"


def secure(response: web.StreamResponse) -> None:
    """Give ``response`` the security headers (an unprepared one: headers can still change)."""
    if response.prepared:
        return
    response.headers.update(SECURITY_HEADERS)
    response.headers.setdefault("Content-Security-Policy", STRICT_CSP)


class _Busy(asyncio.Protocol):
    """A connection over the limit: a 503 and goodbye."""

    def connection_made(self, transport) -> None:
        headers = "".join(f"{k}: {v}\r\n" for k, v in {**SECURITY_HEADERS, "Content-Security-Policy": STRICT_CSP}.items())
        transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nRetry-After: 5\r\n"
                        + headers.encode("ascii") + b"Connection: close\r\n\r\n")
        transport.close()


class _Handler(RequestHandler):
    """aiohttp's connection handler, whose own error answers (a malformed request's 400, a 500) carry the
    security headers, and whose log says a malformed request in one line, never a traceback."""

    __slots__ = ()

    def handle_error(self, request, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        if status == 500 or exc is None:
            response = super().handle_error(request, status, exc, message)
        else:  # a request aiohttp couldn't parse: its line (the token cut out), no traceback
            said = " ".join(str(getattr(exc, "message", exc)).split())[:300]
            self.logger.info("Error handling request from %s: %s %s", request.remote, status,
                             said.encode("ascii", "backslashreplace").decode("ascii"))
            if request.writer.output_size > 0:
                raise ConnectionError("the answer was sent already")
            response = web.Response(status=status, text=f"{status}: {HTTPStatus(status).phrase}\n")
            response.force_close()
        secure(response)
        return response


class _CappedSite(web.BaseSite):
    """A TCP site that answers connections beyond ``limit`` with a 503 instead of serving them."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, *, limit: int) -> None:
        super().__init__(runner, backlog=64)
        self._host, self._port, self._limit = host, port, limit
        self.bound: tuple[str, int] | None = None

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None

        def factory() -> asyncio.Protocol:
            if len(server.connections) >= self._limit:
                return _Busy()
            return _Handler(server, loop=server._loop, **server._kwargs)  # as server() makes one, with our errors

        self._server = await asyncio.get_running_loop().create_server(
            factory, self._host, self._port, backlog=self._backlog, reuse_address=True)
        self.bound = self._server.sockets[0].getsockname()[:2]


class WebServer:
    """The page server over ``source`` (a :mod:`web.source` source) with ``tokens``; run it in one event loop.

    ``await start(host, port)`` binds (port 0: any free one) and returns the
    bound port; ``await stop()`` closes every connection.
    """

    def __init__(self, source, tokens: TokenStore, *, poll_seconds: float = POLL_SECONDS,
                 heartbeat: float = HEARTBEAT_SECONDS, max_streams: int = MAX_STREAMS,
                 max_connections: int = MAX_CONNECTIONS, progress=None) -> None:
        self.source, self.tokens = source, tokens
        self.progress = progress  # told ``(done, total)`` while a long first read goes on (web.source)
        self.poll_seconds, self.heartbeat = poll_seconds, heartbeat
        self.max_streams, self.max_connections = max_streams, max_connections
        self.hub = Hub()
        page, self.csp = page_bytes()
        self.page = Gzipped(page)
        self._state = Gzipped(b"{}")
        self._event = b""
        self._live = b""  # the live view's event while a flow runs (an auction), for a page that connects
        self._generation = tokens.generation
        self._runner: web.AppRunner | None = None
        self._poller: asyncio.Task | None = None
        self.problem: str | None = None

    # -- lifetime ------------------------------------------------------------------------

    async def start(self, host: str, port: int) -> int:
        self._publish(self.source.open(progress=self.progress), send=False)
        self.tokens.current()
        self._generation = self.tokens.generation
        app = web.Application(middlewares=[self._guard], client_max_size=1024)
        app.router.add_get("/", self._page)
        app.router.add_get("/api/state", self._api_state)
        app.router.add_get("/api/events", self._api_events)
        _REDACT.stores.add(self.tokens)
        self._runner = web.AppRunner(app, access_log=None, logger=http_log, handle_signals=False, shutdown_timeout=1.0,
                                     keepalive_timeout=IDLE_SECONDS,
                                     max_line_size=MAX_LINE, max_field_size=MAX_LINE, max_headers=MAX_HEADERS)
        await self._runner.setup()
        site = _CappedSite(self._runner, host, port, limit=self.max_connections)
        try:
            await site.start()
        except BaseException:
            await self._runner.cleanup()
            self.source.close()
            raise
        self._poller = asyncio.get_running_loop().create_task(self._poll_forever())
        return site.bound[1]

    async def stop(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            try:
                await self._poller
            except asyncio.CancelledError:
                pass
            self._poller = None
        self.hub.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self.source.close()

    # -- what is published ---------------------------------------------------------------

    def _publish(self, state: dict, *, send: bool = True) -> None:
        body = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        self._state = Gzipped(body)
        self._event = b"event: state\nid: %d\ndata: %s\n\n" % (state.get("seq", 0), body)
        if send:
            self.hub.publish(self._event)

    def publish_live(self, data: dict | None) -> None:
        """Send the unit's live view (:class:`banker.unit.events.LiveState`: a running auction, a deal being built) to
        every page, from the server's loop. A page that connects meanwhile gets it after the state, until it ends
        (an auction's ``state`` not ``"open"``) or goes (None). A slow page skips older live views before any
        state: each one is whole. Its texts are the core's, put in the page's language here."""
        worded = live_view(data, self.source.game, self.source.language)
        body = json.dumps(worded, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        message = b"event: live\ndata: %s\n\n" % body
        running = data is not None and data.get("state", "open") == "open"  # a deal has no state: it runs till None
        self._live = message if running else b""
        self.hub.publish_live(message)

    def check_token(self) -> None:
        """Close every event stream if the token was renewed (here or by another process)."""
        self.tokens.current()
        if self.tokens.generation != self._generation:
            self._generation = self.tokens.generation
            self.hub.close_all()

    async def _poll_forever(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                for state in self.source.poll():
                    self._publish(state)
                self.check_token()
                self.problem = None
            except Exception as exc:  # the file went away, a read failed: say so, keep trying
                if self.problem is None:
                    log.warning("the table page cannot read the ledger: %s", exc)
                self.problem = str(exc)

    # -- requests ------------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request, handler) -> web.StreamResponse:
        started = time.monotonic()
        try:
            response = await self._checked(request, handler)
        except web.HTTPException as exc:  # the router's 404
            response = web.Response(status=exc.status, text=f"{exc.status}: {exc.reason}\n")
        secure(response)
        log.debug("%s %s %s %.1f ms", request.method, request.path, response.status,
                  (time.monotonic() - started) * 1000)
        return response

    async def _checked(self, request: web.Request, handler) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            return web.Response(status=405, text="The table page is read-only.\n", headers={"Allow": "GET, HEAD"})
        if request.content_length or request.headers.get("Transfer-Encoding"):
            return web.Response(status=413, text="No request body is accepted.\n")
        if not self.tokens.matches(token_of(request)):
            return web.Response(status=401, text=_UNAUTHORISED, headers={"WWW-Authenticate": 'Bearer realm="banker"'})
        return await handler(request)

    async def _page(self, request: web.Request) -> web.Response:
        return self.page.response(request, content_type="text/html", charset="utf-8",
                                  headers={"Content-Security-Policy": self.csp})

    async def _api_state(self, request: web.Request) -> web.Response:
        return self._state.response(request, content_type="application/json", charset="utf-8")

    async def _api_events(self, request: web.Request) -> web.StreamResponse:
        if request.method == "HEAD":
            return web.Response(content_type="text/event-stream")
        if len(self.hub.streams) >= self.max_streams:
            return web.Response(status=503, text="Too many pages are open.\n", headers={"Retry-After": "10"})
        headers = {"Content-Type": "text/event-stream", "X-Accel-Buffering": "no", "Vary": "Accept-Encoding"}
        packer = GzipStream() if accepts_gzip(request) else Plain()
        if isinstance(packer, GzipStream):
            headers["Content-Encoding"] = "gzip"
        response = web.StreamResponse(headers=headers)
        secure(response)
        queue: asyncio.Queue = asyncio.Queue(maxsize=STREAM_BACKLOG)
        self.hub.streams.add(queue)
        try:
            await response.prepare(request)
            await response.write(packer.pack(b"retry: 2000\n\n" + self._event + self._live))
            while True:
                try:
                    message = await asyncio.wait_for(queue.get(), self.heartbeat)
                except TimeoutError:
                    message = b"event: ping\ndata: 1\n\n"
                if message is _CLOSE:
                    ending = packer.end()
                    if ending:
                        await asyncio.wait_for(response.write(ending), WRITE_SECONDS)
                    response.force_close()  # the connection goes too: the page notices at once
                    break
                await asyncio.wait_for(response.write(packer.pack(message)), WRITE_SECONDS)
        except (TimeoutError, ConnectionResetError):  # the page went away, or stopped reading
            response.force_close()
        finally:
            self.hub.streams.discard(queue)
        return response
