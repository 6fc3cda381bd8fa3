"""The table page's server under hostile input: one log line, never a traceback; every answer secured; tokens healed."""

from __future__ import annotations

import http.client
import logging
import os
import socket
import time

import pytest

from runtime.ledger import SqliteLedger
from web import serve_in_background
from web.server import SECURITY_HEADERS
from web.tokens import TokenStore, token_path

MALFORMED = [
    b"NONSENSE / HTTP/9\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: zz\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(32),  # a TLS hello on the plain port
]


@pytest.fixture
def ledger(tmp_path):
    with SqliteLedger(tmp_path / "ledger.db") as led:
        led.enrol("Alice", "A1")
        yield led


@pytest.fixture
def served(ledger):
    server = serve_in_background(ledger, host="127.0.0.1", port=0, poll_seconds=0.05)
    yield server
    server.close()


def raw(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(data)
        answer = b""
        while chunk := conn.recv(4096):
            answer += chunk
        return answer


def headers_of(answer: bytes) -> dict[str, str]:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in head)}


def assert_secured(headers: dict[str, str]) -> None:
    for name, value in SECURITY_HEADERS.items():
        assert headers.get(name) == value, (name, headers)
    assert "default-src 'none'" in headers["Content-Security-Policy"]
    assert "aiohttp" not in str(headers).lower() and "python" not in str(headers).lower()


@pytest.mark.parametrize("request_bytes", MALFORMED, ids=range(len(MALFORMED)))
def test_a_malformed_request_is_one_log_line_and_a_secured_400(served, caplog, request_bytes):
    caplog.set_level(logging.DEBUG, logger="banker.web")
    answer = raw(served.port, request_bytes)
    time.sleep(0.1)
    assert answer.startswith(b"HTTP/1.") and b" 400 " in answer.split(b"\r\n", 1)[0]
    assert_secured(headers_of(answer))
    lines = [r for r in caplog.records if r.name == "banker.web.http"]
    assert len(lines) == 1 and "Error handling request" in lines[0].getMessage()
    assert not lines[0].exc_info and not lines[0].exc_text and "\n" not in lines[0].getMessage()
    assert "Traceback" not in caplog.text


@pytest.mark.parametrize("method, target, status", [
    ("GET", "/nothing?t={t}", 404), ("POST", "/?t={t}", 405), ("GET", "/api/state", 401),
    ("GET", "/api/state?t={t}", 200), ("GET", "/?t={t}", 200),
])
def test_every_answer_carries_the_security_headers(served, method, target, status):
    token = served.url.split("t=", 1)[1]
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=5)
    conn.request(method, target.format(t=token))
    response = conn.getresponse()
    assert response.status == status
    assert_secured(dict(response.getheaders()))
    conn.close()


def test_a_500_is_secured_too_and_shows_no_traceback(served, monkeypatch, caplog):
    def broken(given):
        raise RuntimeError("a bug")

    monkeypatch.setattr(served.tokens, "matches", broken)
    answer = raw(served.port, b"GET /api/state HTTP/1.1\r\nHost: x\r\nAccept: text/html\r\n\r\n")
    assert b" 500 " in answer.split(b"\r\n", 1)[0]
    assert_secured(headers_of(answer))
    assert b"Traceback" not in answer and b"a bug" not in answer


def test_the_busy_answer_is_secured(ledger):
    with serve_in_background(ledger, host="127.0.0.1", port=0, max_connections=1) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5):
            time.sleep(0.2)
            answer = raw(server.port, b"")
    assert answer.startswith(b"HTTP/1.1 503")
    assert_secured(headers_of(answer))


# -- the token file ------------------------------------------------------------------------


@pytest.mark.parametrize("damage", [
    "Ünïcödé-tøken-ääää".encode(), b"\xff\xfe\x00garbage\x00\x00\x00\x00\x00\x00\x00\x00", b"", b"short\n",
    b"a" * 10_000, b"\x1b[2Jabcdefghijklmnopqrstuv",
], ids=["latin", "binary", "empty", "short", "huge", "escape"])
def test_a_damaged_token_file_is_replaced_not_a_500(tmp_path, damage, caplog):
    db = tmp_path / "ledger.db"
    with SqliteLedger(db) as led:
        led.enrol("Alice", "A1")
    token_file = token_path(db)
    token_file.write_bytes(damage)
    caplog.set_level(logging.WARNING, logger="banker.web")
    with serve_in_background(db, host="127.0.0.1", port=0) as server:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/api/state?" + server.url.split("?", 1)[1])
        assert conn.getresponse().status == 200
        token_file.write_bytes(damage)  # damaged again while it runs
        time.sleep(0.05)
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/api/state?t=wrong-token-16ch")
        assert conn.getresponse().status == 401  # not a 500
    token = token_file.read_text(encoding="ascii").strip()
    assert len(token) == 16 and token.replace("-", "").replace("_", "").isalnum()
    assert "damaged" in caplog.text and token not in caplog.text


def test_the_token_is_never_written_through_a_planted_link(tmp_path, monkeypatch):
    import store.keys as store_keys

    victim = tmp_path / "victim"
    victim.write_text("keep me")
    store = TokenStore(tmp_path / "ledger.db.web-token")
    monkeypatch.setattr(store_keys.secrets, "token_hex", lambda n: "guessed")
    (tmp_path / f".ledger.db.web-token.{os.getpid()}.guessed.tmp").symlink_to(victim)
    with pytest.raises(FileExistsError):
        store.current()
    assert victim.read_text() == "keep me"


def test_a_link_as_the_token_file_is_replaced_not_read(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("abcdefghijklmnopqrstuvwxyz\n")
    path = tmp_path / "ledger.db.web-token"
    path.symlink_to(secret)
    token = TokenStore(path).current()
    assert token != "abcdefghijklmnopqrstuvwxyz" and not path.is_symlink()
    assert secret.read_text() == "abcdefghijklmnopqrstuvwxyz\n" and oct(os.stat(path).st_mode & 0o777) == "0o600"
