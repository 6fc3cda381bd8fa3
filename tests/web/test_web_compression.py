"""The table page's answers are gzipped for a client that takes gzip: the page, the state, the live event stream."""

from __future__ import annotations

import gzip
import http.client
import json
import time
import zlib

import pytest

from tests.web.test_web_server import Page, game, page, pay, posted  # noqa: F401 (fixtures)

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.mark.parametrize("path", ["/", "/api/state"])
def test_page_and_state_are_gzipped_when_the_client_takes_gzip(page, path):  # noqa: F811
    status, plain_headers, plain = page.get(path)  # http.client asks for identity
    assert status == 200 and "Content-Encoding" not in plain_headers
    status, headers, packed = page.get(path, headers=GZIP)
    assert status == 200 and headers["Content-Encoding"] == "gzip" and headers["Vary"] == "Accept-Encoding"
    assert gzip.decompress(packed) == plain
    assert len(packed) < len(plain) / 3
    assert headers["Content-Security-Policy"] == plain_headers["Content-Security-Policy"]  # still secured


@pytest.mark.parametrize("accept", ["identity", "gzip;q=0", "br", "gzip;q=0, *", "*;q=0"])
def test_no_gzip_for_a_client_that_refuses_it(page, accept):  # noqa: F811
    status, headers, body = page.get("/api/state", headers={"Accept-Encoding": accept})
    assert status == 200 and "Content-Encoding" not in headers and json.loads(body)["players"]


class GzipStream:
    """``GET /api/events`` asking for gzip, inflated as the bytes come (a browser's EventSource does this)."""

    def __init__(self, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        self.conn.request("GET", f"/api/events?t={token}", headers=GZIP)
        self.response = self.conn.getresponse()
        self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.text, self.wire = b"", 0

    def next_state(self, timeout: float) -> dict:
        self.conn.sock.settimeout(timeout)
        while True:
            event, sep, rest = self.text.partition(b"\n\n")
            if sep:
                self.text = rest
                lines = event.decode().split("\n")
                if "event: state" in lines:
                    return json.loads("".join(line[6:] for line in lines if line.startswith("data: ")))
                continue
            chunk = self.response.read1(65536)
            assert chunk, "the stream ended"
            self.wire += len(chunk)
            self.text += self.inflate.decompress(chunk)


def test_the_event_stream_is_gzipped_and_each_commit_arrives_at_once(page, game):  # noqa: F811
    stream = GzipStream(page.server.port, page.token)
    try:
        assert stream.response.getheader("Content-Encoding") == "gzip"
        first = stream.next_state(5.0)
        assert first["balances"]["Alice"] == 15_000_000
        before = stream.wire
        started = time.monotonic()
        pay(game, "Bob", "Alice", 2_500_000)
        state = stream.next_state(1.0)  # flushed whole: not held back in the compressor
        assert time.monotonic() - started < 1.0
        assert state["balances"] == {"Alice": 17_500_000, "Bob": 12_500_000}
        body = len(json.dumps(state))
        assert stream.wire - before < body / 3  # the commit cost a fraction of the state it carried
    finally:
        stream.conn.close()
