"""``banker web``: the first line is the page's URL with its token; it reads a ledger a running unit writes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from click.testing import CliRunner

from banker.journal.records import Posting, Transaction
from banker_cli.web_cli import web_command
from runtime.ledger import SqliteLedger

ROOT = Path(__file__).resolve().parents[2]


def banker_web(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "banker_cli.web_cli", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def state(url: str) -> dict:
    with urllib.request.urlopen(url.replace("/?t=", "/api/state?t="), timeout=5) as response:
        return json.load(response)


def test_the_first_line_is_the_url_and_the_page_follows_the_unit(tmp_path):
    db = tmp_path / "ledger.db"
    with SqliteLedger(db) as unit:  # the unit keeps writing while banker web reads
        alice, bob = unit.enrol("Alice", "A1"), unit.enrol("Bob", "B2")
        server = banker_web("--db", str(db), "--port", "0")
        try:
            url = server.stdout.readline().strip()
            assert url.startswith("http://127.0.0.1:") and "/?t=" in url  # localhost unless told otherwise
            assert state(url)["balances"] == {"Alice": 15_000_000, "Bob": 15_000_000}
            unit.post(Transaction("transfer", (Posting(bob.id, alice.id, 2_000_000, "transfer"),), "Bob paid Alice"))
            deadline = time.monotonic() + 2
            while state(url)["balances"]["Bob"] != 13_000_000:
                assert time.monotonic() < deadline, "the payment never showed"
                time.sleep(0.05)
            try:
                urllib.request.urlopen(url.split("?")[0], timeout=5)
                raise AssertionError("served without the token")
            except urllib.error.HTTPError as exc:
                assert exc.code == 401
        finally:
            server.send_signal(signal.SIGTERM)
            out, err = server.communicate(timeout=10)
        assert server.returncode == 0, err
        assert url.split("t=")[1] not in err  # the token is printed once, on stdout


def test_the_same_address_after_a_restart(tmp_path):
    db = tmp_path / "ledger.db"
    SqliteLedger(db).close()
    urls = []
    for _ in range(2):
        server = banker_web("--db", str(db), "--port", "0")
        try:
            urls.append(server.stdout.readline().strip().split("/?t=")[1])
        finally:
            server.send_signal(signal.SIGTERM)
            server.communicate(timeout=10)
    assert urls[0] == urls[1]


def test_no_ledger_no_page(tmp_path):
    result = CliRunner().invoke(web_command, ["--db", str(tmp_path / "none.db")])
    assert result.exit_code == 3 and "no ledger" in result.output
    assert not (tmp_path / "none.db").exists()


def test_a_bad_config_is_named(tmp_path):
    config = tmp_path / "banker.toml"
    config.write_text("[web]\nport = 0\n")
    result = CliRunner().invoke(web_command, ["--config", str(config), "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2 and "web.port" in result.output


def test_the_config_names_the_address(tmp_path):
    db = tmp_path / "ledger.db"
    SqliteLedger(db).close()
    config = tmp_path / "banker.toml"
    config.write_text(f'[unit]\ndb = "{db}"\n\n[web]\nenabled = true\nhost = "127.0.0.1"\nport = 1\n')
    server = banker_web("--config", str(config), "--port", "0")  # --port wins over the config's
    try:
        url = server.stdout.readline().strip()
        assert state(url)["game"]["id"] == 1
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=10)
