"""``banker web --qr`` (issue 30): the page's address and, under it, its QR code drawn in the terminal, read back here
as a phone's camera would read it (zxing-cpp) and module by module against the code ``FN K`` shows."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image

from render.frame import _qr_modules
from runtime.ledger import SqliteLedger

ROOT = Path(__file__).resolve().parents[2]
#: A character of the drawing: (top module light, bottom module light).
HALVES = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}


def banker_web_qr(db: Path, encoding: str, *args: str) -> tuple[str, list[str], str]:
    """(the first line, the lines under it, stderr) of ``banker web --qr`` writing ``encoding``, stopped once it serves."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONIOENCODING": encoding}
    env.pop("NO_COLOR", None)
    server = subprocess.Popen([sys.executable, "-m", "banker_cli.web_cli", "--db", str(db), "--port", "0", "--qr", *args],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              encoding="utf-8", errors="replace")
    try:
        err = []
        while not any("serving the table page" in line for line in err):  # said once the code is drawn
            line = server.stderr.readline()
            assert line, "banker web stopped: " + "".join(err)
            err.append(line)
    finally:
        server.send_signal(signal.SIGTERM)
        out, rest = server.communicate(timeout=10)
    assert server.returncode == 0, rest
    first, *drawing = out.splitlines()
    return first, drawing, "".join(err) + rest


def modules_of_blocks(lines: list[str]) -> list[list[bool]]:
    """The modules (True: light) the half-block drawing shows: two rows a line."""
    rows = []
    for line in lines:
        pairs = [HALVES[ch] for ch in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    return rows


def modules_of_ascii(lines: list[str]) -> list[list[bool]]:
    """The modules (True: light) the ASCII drawing shows: ``##`` a light module, two spaces a dark one."""
    assert all(len(line) % 2 == 0 and set(line) <= {"#", " "} for line in lines)
    return [[line[i:i + 2] == "##" for i in range(0, len(line), 2)] for line in lines]


def read_like_a_phone(rows: list[list[bool]]) -> list[str]:
    """The texts zxing-cpp reads from the drawing photographed (light modules white, 8 pixels a module)."""
    image = Image.new("L", (len(rows[0]), len(rows)))
    image.putdata([255 if light else 0 for row in rows for light in row])
    image = image.resize((image.width * 8, image.height * 8), Image.NEAREST)
    return [found.text for found in zxingcpp.read_barcodes(image)]


def fn_k_code(url: str) -> list[list[bool]]:
    """The code ``FN K`` shows for ``url`` (render/frame.py's modules), light as True, with a quiet zone of 4."""
    modules = [[not dark for dark in row] for row in _qr_modules(url)]
    side = len(modules) + 8
    return [[True] * side] * 4 + [[True] * 4 + row + [True] * 4 for row in modules] + [[True] * side] * 4


@pytest.fixture
def db(tmp_path):
    with SqliteLedger(tmp_path / "ledger.db") as ledger:
        ledger.enrol("Alice", "A1")
    return tmp_path / "ledger.db"


def test_the_code_in_half_blocks_reads_back_as_the_pages_address(db):
    url, drawing, err = banker_web_qr(db, "utf-8")
    assert url.startswith("http://127.0.0.1:") and "/?t=" in url  # the first line stays the address
    rows = modules_of_blocks(drawing)
    code = fn_k_code(url)
    assert len(drawing) == (len(code) + 1) // 2  # two rows a line: a near-square module
    assert rows[:len(code)] == code  # module for module the unit's code, its quiet zone all round
    assert read_like_a_phone(rows[:len(code)]) == [url]
    assert "\x1b" not in "".join(drawing)  # no colour codes into a pipe
    assert "this computer only" in err  # a 127.0.0.1 code is no use to a phone: it says so


def test_a_terminal_without_unicode_gets_the_code_in_ascii(db):
    url, drawing, _ = banker_web_qr(db, "ascii")
    rows = modules_of_ascii(drawing)
    assert rows == fn_k_code(url)
    assert read_like_a_phone(rows) == [url]


def test_without_qr_only_the_address_is_printed(db):
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([sys.executable, "-m", "banker_cli.web_cli", "--db", str(db), "--port", "0"], cwd=ROOT,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        while "serving the table page" not in server.stderr.readline():
            assert server.poll() is None
    finally:
        server.send_signal(signal.SIGTERM)
        out, _ = server.communicate(timeout=10)
    assert len(out.splitlines()) == 1 and out.startswith("http://")
