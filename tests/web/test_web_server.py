"""The table page's server: the token, read-only, no path traversal, limits, live events, renewal, silent logs."""

from __future__ import annotations

import http.client
import json
import logging
import socket
import time
from urllib.parse import urlsplit

import pytest

from banker.unit.events import RenewWebToken, WebAddress
from banker.journal.records import Posting, Transaction
from runtime.ledger import SqliteLedger
from web import serve_in_background


def pay(ledger, payer: str, payee: str, amount: int) -> None:
    a, b = ledger.game().card_by_name(payer), ledger.game().card_by_name(payee)
    ledger.post(Transaction("transfer", (Posting(a.id, b.id, amount, "transfer"),), f"{payer} paid {payee}"))


class Page:
    """A client of the served page: plain HTTP on the loopback, like a phone on the table."""

    def __init__(self, server) -> None:
        self.server = server

    @property
    def token(self) -> str:
        return urlsplit(self.server.url).query.removeprefix("t=")

    def request(self, method: str, target: str, *, headers: dict | None = None, body: bytes | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=5)
        try:
            conn.request(method, target, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def get(self, path: str, *, token: str | None = "mine", headers: dict | None = None):
        token = self.token if token == "mine" else token
        target = path if token is None else f"{path}{'&' if '?' in path else '?'}t={token}"
        return self.request("GET", target, headers=headers)

    def state(self) -> dict:
        status, _, body = self.get("/api/state")
        assert status == 200
        return json.loads(body)

    def events(self, token: str | None = "mine") -> EventStream:
        return EventStream(self.server.port, self.token if token == "mine" else token)


class EventStream:
    """One ``GET /api/events`` connection, read event by event."""

    def __init__(self, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        self.conn.request("GET", f"/api/events?t={token}")
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def next(self, kind: str = "state", timeout: float = 5.0) -> dict | None:
        """The next event of ``kind`` (its data as JSON), None when the server closed the stream."""
        self.conn.sock.settimeout(timeout)
        event, data = None, []
        while True:
            line = self.response.fp.readline()
            if not line:
                return None
            line = line.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data.append(line[6:])
            elif line == "" and data:
                if event == kind:
                    return json.loads("\n".join(data))
                event, data = None, []

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def game(unit):
    """The unit's ledger file (conftest's ``unit``: Alice and Bob enrolled), the game the page follows."""
    return unit


@pytest.fixture
def posted():
    return []


@pytest.fixture
def page(game, posted):
    server = serve_in_background(game, host="127.0.0.1", port=0, post=posted.append, poll_seconds=0.05)
    yield Page(server)
    server.close()


# -- the token -----------------------------------------------------------------------------


def test_the_state_with_the_token_in_the_query_or_as_bearer(page):
    assert page.state()["balances"] == {"Alice": 15_000_000, "Bob": 15_000_000}
    status, _, body = page.get("/api/state", token=None, headers={"Authorization": f"Bearer {page.token}"})
    assert status == 200 and json.loads(body)["balances"]["Bob"] == 15_000_000


@pytest.mark.parametrize("path", ["/", "/api/state", "/api/events", "/nothing-here"])
def test_without_the_token_401(page, path):
    for token in (None, "", "wrong-token-16ch", page.token[:-1] + ("A" if page.token[-1] != "A" else "B")):
        status, headers, body = page.get(path, token=token)
        assert status == 401, (path, token)
        assert "Bearer" in headers["WWW-Authenticate"] and page.token.encode() not in body
    status, _, _ = page.get(path, token=None, headers={"Authorization": "Bearer nope"})
    assert status == 401


def test_the_page_comes_whole_from_the_unit_and_is_small(page):
    status, headers, body = page.get("/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert len(body) < 100_000
    text = body.decode().replace('"http://www.w3.org/2000/svg"', "")  # the SVG namespace: a name, not a load
    assert "http://" not in text and "https://" not in text and "//" + "cdn" not in text
    assert " src=" not in text and "<link rel=\"stylesheet\"" not in text  # nothing loaded from outside
    csp = headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "connect-src 'self'" in csp and "'unsafe-inline'" not in csp
    assert headers["Referrer-Policy"] == "no-referrer" and headers["Cache-Control"] == "no-store"


# -- read-only, traversal, limits ---------------------------------------------------------


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_no_request_changes_the_game(page, game, method):
    before = game.game()
    for path in ("/", "/api/state", "/api/events"):
        status, headers, _ = page.request(method, f"{path}?t={page.token}", body=b'{"balances": {"Bob": 0}}',
                                          headers={"Content-Type": "application/json"})
        assert status == 405 and headers["Allow"] == "GET, HEAD"
    assert game.game() is before


def test_head_asks_without_opening_a_stream(page):
    status, headers, body = page.request("HEAD", f"/api/events?t={page.token}")
    assert status == 200 and body == b"" and headers["Content-Type"].startswith("text/event-stream")
    assert not page.server.server.hub.streams


def test_a_request_with_a_body_is_refused(page):
    status, _, _ = page.request("GET", f"/api/state?t={page.token}", body=b"x" * 10)
    assert status == 413


@pytest.mark.parametrize("path", ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/static/../server.py",
                                  "/web/server.py", "/static/page.js", "//etc/passwd", "/api/../../ledger.db"])
def test_no_path_leads_to_a_file(page, path):
    status, _, body = page.request("GET", f"{path}?t={page.token}")
    assert status in (400, 404)
    assert b"root:" not in body and b"import" not in body and b"SQLite" not in body


def test_oversized_requests_are_refused(page):
    status, _, _ = page.request("GET", f"/api/state?t={page.token}", headers={"X-Long": "x" * 10_000})
    assert status in (400, 431)
    many = {f"X-H{i}": "1" for i in range(64)}
    status, _, _ = page.request("GET", f"/api/state?t={page.token}", headers=many)
    assert status in (400, 431)


def test_streams_and_connections_are_limited(game):
    with serve_in_background(game, host="127.0.0.1", port=0, max_streams=2, max_connections=4) as server:
        page = Page(server)
        streams = [page.events() for _ in range(2)]
        assert [s.next() is not None for s in streams] == [True, True]
        third = page.events()
        assert third.status == 503
        third.close()
        sockets = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(3)]
        time.sleep(0.2)
        extra = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        assert extra.recv(100).startswith(b"HTTP/1.1 503")
        for s in sockets + [extra]:
            s.close()
        for s in streams:
            s.close()


# -- live ----------------------------------------------------------------------------------


def test_a_commit_reaches_an_open_stream_within_a_second(page, game):
    stream = page.events()
    try:
        assert stream.status == 200
        assert stream.next()["balances"]["Alice"] == 15_000_000  # the state now, at once
        started = time.monotonic()
        pay(game, "Bob", "Alice", 2_500_000)
        state = stream.next(timeout=1.0)
        assert time.monotonic() - started < 1.0
        assert state["balances"] == {"Alice": 17_500_000, "Bob": 12_500_000}
        assert state["journal"][-1]["memo"] == "Bob paid Alice"
    finally:
        stream.close()


def test_every_commit_is_one_event(page, game):
    stream = page.events()
    try:
        stream.next()
        for _ in range(3):
            pay(game, "Bob", "Alice", 100_000)
        seen = [stream.next(timeout=2.0)["balances"]["Bob"] for _ in range(3)]
        assert seen == [14_900_000, 14_800_000, 14_700_000]
    finally:
        stream.close()


def test_renewing_the_token_closes_old_sessions_and_refuses_the_old_address(page, posted):
    old = page.token
    stream = page.events()
    stream.next()
    assert posted == [WebAddress(page.server.url, posted[0].t)]
    new_url = page.server.renew_token()
    assert stream.next(timeout=2.0) is None  # the server closed it
    stream.close()
    assert page.get("/api/state", token=old)[0] == 401
    assert new_url.endswith(page.token) and page.token != old
    assert page.get("/api/state")[0] == 200
    assert posted[-1].url == new_url


def test_the_shell_effect_renews(page, posted):
    old = page.token
    page.server.on_effect(RenewWebToken())
    assert page.token != old and posted[-1].url.endswith(page.token)
    page.server.on_effect(object())  # anything else is not the page's business
    assert posted[-1].url.endswith(page.token)


def test_closing_tells_the_unit_there_is_no_page(game, posted):
    server = serve_in_background(game, host="127.0.0.1", port=0, post=posted.append)
    stream = Page(server).events()
    stream.next()
    server.close()
    assert stream.next(timeout=2.0) is None
    assert posted[-1].url is None


def test_the_token_is_never_logged(page, game, caplog):
    caplog.set_level(logging.DEBUG)
    page.get("/api/state")
    page.get("/api/state", token=None, headers={"Authorization": f"Bearer {page.token}"})
    page.get("/?t=bad")
    stream = page.events()
    stream.next()
    pay(game, "Bob", "Alice", 1_000)
    stream.next(timeout=2.0)
    stream.close()
    page.request("GET", f"/api/state?t={page.token}", headers={"X-Long": "x" * 10_000})  # aiohttp logs these
    page.request("GET", f"/api/state?t={page.token}{'a' * 5000}")
    with socket.create_connection(("127.0.0.1", page.server.port), timeout=5) as raw:
        raw.sendall(f"NONSENSE /?t={page.token} HTTP/9\r\nAuthorization: Bearer {page.token}\r\n\r\n".encode())
        raw.recv(1000)
    time.sleep(0.1)
    assert "GET /api/state 200" in caplog.text and "Error handling request" in caplog.text
    assert page.token not in caplog.text and page.token[:8] not in caplog.text


def test_a_ledger_in_memory_is_served_from_its_snapshots():
    with SqliteLedger(":memory:") as ledger:
        ledger.enrol("Alice", "A1")
        ledger.enrol("Bob", "B2")
        with serve_in_background(ledger, host="127.0.0.1", port=0, poll_seconds=0.05) as server:
            page = Page(server)
            stream = page.events()
            stream.next()
            pay(ledger, "Alice", "Bob", 3_000_000)
            assert stream.next(timeout=1.0)["balances"] == {"Alice": 12_000_000, "Bob": 18_000_000}
            stream.close()


def test_a_port_in_use_is_said(game):
    with serve_in_background(game, host="127.0.0.1", port=0) as first:
        with pytest.raises(OSError):
            serve_in_background(game, host="127.0.0.1", port=first.port)
