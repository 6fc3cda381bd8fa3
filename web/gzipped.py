"""The table page's answers gzipped for a client that takes gzip (docs/web.md, "Compressed"): the standard library's.

The page and each state are gzipped once (:class:`Gzipped`), whatever the
number of pages; an event stream has a compressor of its own
(:class:`GzipStream`) that flushes each event whole, so the page reads it
at once, and keeps the stream's earlier states in its window, so a commit
costs a few hundred bytes rather than the whole state.
"""

from __future__ import annotations

import gzip
import zlib

from aiohttp import web

#: zlib's level and memory level for an event stream (one compressor a stream: about 140 KB).
STREAM_GZIP = (6, 5)


def accepts_gzip(request: web.BaseRequest) -> bool:
    """Whether the client takes gzip: ``Accept-Encoding`` names ``gzip`` (or ``x-gzip``, or ``*``) with q > 0."""
    weights: dict[str, float] = {}
    for item in request.headers.get("Accept-Encoding", "").split(","):
        coding, *params = (part.strip() for part in item.split(";"))
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if coding:
            weights[coding.lower()] = q
    q = weights.get("gzip", weights.get("x-gzip", weights.get("*", 0.0)))
    return q > 0


class Gzipped:
    """A body as it is, and gzipped (the standard library's, once, when first asked for)."""

    def __init__(self, body: bytes) -> None:
        self.body = body
        self._packed: bytes | None = None

    def response(self, request: web.BaseRequest, **options) -> web.Response:
        """The body for ``request``: gzipped if it takes gzip (``Content-Encoding``, ``Vary``), else as it is."""
        headers = {**options.pop("headers", {}), "Vary": "Accept-Encoding"}
        if not accepts_gzip(request):
            return web.Response(body=self.body, headers=headers, **options)
        if self._packed is None:
            self._packed = gzip.compress(self.body, mtime=0)
        return web.Response(body=self._packed, headers={**headers, "Content-Encoding": "gzip"}, **options)


class GzipStream:
    """An event stream gzipped as it goes: each message flushed whole (``Z_SYNC_FLUSH``), so the page reads
    it at once; the stream's earlier states stay in the window, so a commit costs a few hundred bytes."""

    def __init__(self) -> None:
        level, memory = STREAM_GZIP
        self._zlib = zlib.compressobj(level, zlib.DEFLATED, 16 + zlib.MAX_WBITS, memory)

    def pack(self, message: bytes) -> bytes:
        return self._zlib.compress(message) + self._zlib.flush(zlib.Z_SYNC_FLUSH)

    def end(self) -> bytes:
        return self._zlib.flush(zlib.Z_FINISH)


class Plain:
    """An event stream as it is (a client that doesn't take gzip)."""

    def pack(self, message: bytes) -> bytes:
        return message

    def end(self) -> bytes:
        return b""
