"""What leaves the unit: CSV cells a spreadsheet can't run, control characters shown, ``-o`` never replacing a device."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
import threading
from pathlib import Path

import pytest

from banker.journal.records import Posting, Transaction
from banker_cli.common import shown
from banker_cli.ledger_cli import FIELDS, write_csv
from runtime.ledger import SqliteLedger
from tests.cli.support import banker

FORMULAS = ['=HYPERLINK("http://x")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3+cmd|' /C calc'!A0", "%0A=1"]
HOSTILE = "Al\x1b]0;owned\x07i\x1b[2J\x9bce\u202eX\u2066\r\n\t\x00\x7f"



def no_controls(text: str) -> None:
    """Nothing in ``text`` but printable characters and the line breaks between its lines."""
    for line in text.replace("\r\n", "\n").split("\n"):
        assert line.isprintable(), repr(line)


@pytest.fixture
def formula_names(tmp_path):
    """A ledger whose players are named like spreadsheet formulas, enrolled the ordinary way."""
    db = tmp_path / "ledger.db"
    for name in FORMULAS:
        result = banker("cards", "enrol", "--db", db, "--", name)
        assert result.exit_code == 0, result.output
    return db


@pytest.fixture
def old_ledger(tmp_path, monkeypatch):
    """A ledger from before names were checked: a name and a memo holding ESC, BEL, CSI, C1 and bidi overrides."""
    import banker.fold.acts
    import banker.fold.game

    for module in (banker.fold.acts, banker.fold.game):  # as an old release enrolled: any name
        monkeypatch.setattr(module, "check_enrolment", lambda *a, **k: None)
    db = tmp_path / "old.db"
    with SqliteLedger(db) as ledger:
        ledger.enrol(HOSTILE, "A1")
        ledger.enrol("Bob", "B2")
        alice, bob = (c.id for c in ledger.game().cards)
        ledger.post(Transaction("transfer", (Posting(alice, bob, 1_000, "transfer"),), f"memo {HOSTILE}"))
    return db


# -- CSV ----------------------------------------------------------------------------------


def test_formula_names_come_out_inert(formula_names):
    result = banker("ledger", "export", "--db", formula_names)
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert {row["payee"] for row in rows} == {f"'{n}".replace("|", "\\|") for n in FORMULAS}
    for row in rows:
        for cell in row.values():
            assert not cell or cell[0] not in "=+-@\t\r|%" or cell.lstrip("-").isdigit(), cell
        assert row["memo"].startswith("'")


def test_a_tab_or_cr_at_a_cells_start_is_shown_not_kept():
    out = io.StringIO()
    write_csv(out, [dict.fromkeys(FIELDS, "\t=1+1") | {"memo": "\r=1+1", "amount": 5}])
    row = next(csv.DictReader(io.StringIO(out.getvalue())))
    assert row["payer"] == "\\t=1+1" and row["memo"] == "\\r=1+1"


@pytest.mark.parametrize("amount", [1_500_000, -1_500_000, 0])
def test_amounts_stay_plain_numbers_signed_or_not(amount):
    out = io.StringIO()
    write_csv(out, [dict.fromkeys(FIELDS, "x") | {"amount": amount, "id": 7, "reverses": None}])
    line = out.getvalue().splitlines()[1]
    assert f",{amount}," in line and "'" not in line  # -1500000: a number a spreadsheet sums, not text
    assert next(csv.DictReader(io.StringIO(out.getvalue())))["reverses"] == ""


def test_a_minus_that_is_a_number_is_kept_one_that_is_a_formula_is_not():
    out = io.StringIO()
    write_csv(out, [dict.fromkeys(FIELDS, "-15") | {"memo": "-15+cmd"}])
    row = next(csv.DictReader(io.StringIO(out.getvalue())))
    assert row["payer"] == "-15" and row["memo"] == "'-15+cmd"


# -- control characters -------------------------------------------------------------------


def test_shown_writes_every_control_visibly_and_keeps_the_rest():
    assert shown("Al\x1b[2Jice") == "Al\\x1b[2Jice"
    assert shown("\x07\x9b\u202e\u2066\x00\x7f\n\r\t") == "\\x07\\x9b\\u202e\\u2066\\x00\\x7f\\n\\r\\t"
    assert shown("Zoë 👨‍👩‍👧 Player 1 -> 5M") == "Zoë 👨‍👩‍👧 Player 1 -> 5M"


def test_show_prints_no_control_character(old_ledger):
    result = banker("ledger", "show", "--db", old_ledger)
    assert result.exit_code == 0, result.output
    no_controls(result.output)
    assert "Al\\x1b]0;owned\\x07i\\x1b[2J\\x9bce\\u202eX" in result.output
    assert len(result.output.splitlines()) == 3  # one line a posting: a CR or LF in a name can't add one


def test_the_csv_holds_no_control_character(old_ledger):
    result = banker("ledger", "export", "--db", old_ledger)
    assert result.exit_code == 0, result.output
    no_controls(result.output)
    rows = list(csv.DictReader(io.StringIO(result.output)))
    assert len(rows) == 3 and rows[2]["memo"].startswith("memo Al\\x1b]0;owned\\x07")


def test_the_json_escapes_them_itself(old_ledger):
    result = banker("ledger", "export", "--format", "json", "--db", old_ledger)
    assert result.exit_code == 0, result.output
    assert result.output.isascii()
    no_controls(result.output)
    assert json.loads(result.output)[2]["memo"] == f"memo {HOSTILE}"  # the data itself, whole


def test_an_error_line_shows_them_too(old_ledger, monkeypatch):
    result = banker("cards", "remove", "Nob\x1b[2Jody", "--db", old_ledger)
    assert result.exit_code == 1
    no_controls(result.output)


# -- -o -------------------------------------------------------------------------------------


def test_a_regular_file_is_replaced_whole_and_private(formula_names, tmp_path):
    out = tmp_path / "out.csv"
    out.write_text("old\n")
    out.chmod(0o644)
    assert banker("ledger", "export", "-o", out, "--db", formula_names).exit_code == 0
    assert out.read_text().startswith("id,game") and stat.S_IMODE(out.stat().st_mode) == 0o600
    assert not list(tmp_path.glob("*.part"))


def test_dev_null_is_written_through_never_replaced(formula_names):
    before = os.stat("/dev/null")
    result = banker("ledger", "export", "-o", "/dev/null", "--db", formula_names)
    assert result.exit_code == 0, result.output
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino
    assert not list(Path("/dev").glob(".null.*.part"))


def test_a_fifo_is_written_through(formula_names, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    result = banker("ledger", "export", "-o", fifo, "--db", formula_names)
    reader.join(5)
    assert result.exit_code == 0, result.output
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and got[0].startswith("id,game")


def test_a_link_to_a_device_is_written_through_and_stays_a_link(formula_names, tmp_path):
    link = tmp_path / "stdout"
    link.symlink_to("/dev/null")
    assert banker("ledger", "export", "-o", link, "--db", formula_names).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == "/dev/null"


def test_a_link_to_a_file_writes_the_file(formula_names, tmp_path):
    real = tmp_path / "real.csv"
    real.write_text("x" * 100_000)
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    assert banker("ledger", "export", "-o", link, "--db", formula_names).exit_code == 0
    assert link.is_symlink() and real.read_text().startswith("id,game") and "xxx" not in real.read_text()


@pytest.mark.parametrize("make, code, says", [
    (lambda p: p.symlink_to(p.parent / "nowhere"), 3, "a link to"),
    (lambda p: p.mkdir(), 2, "directory"),
])
def test_what_is_refused(formula_names, tmp_path, make, code, says):
    target = tmp_path / "target"
    make(target)
    result = banker("ledger", "export", "-o", target, "--db", formula_names)
    assert result.exit_code == code and says in result.output, result.output
    assert "Traceback" not in result.output and not (tmp_path / "nowhere").exists()


def test_a_socket_or_a_block_device_is_refused(formula_names, tmp_path):
    import socket

    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(tmp_path / "sock"))
        result = banker("ledger", "export", "-o", tmp_path / "sock", "--db", formula_names)
        assert result.exit_code == 3 and "neither a file, a FIFO nor a character device" in result.output
        assert stat.S_ISSOCK(os.lstat(tmp_path / "sock").st_mode)
    block = next((p for p in Path("/dev").glob("loop*") if stat.S_ISBLK(p.stat().st_mode)), None)
    if block is not None:
        assert banker("ledger", "export", "-o", block, "--db", formula_names).exit_code == 3


def test_a_killed_exports_part_file_is_cleaned_by_the_next(formula_names, tmp_path):
    out = tmp_path / "out.csv"
    dead = 2**22 + 12345  # past pid_max's default: no such process
    stale = tmp_path / f".out.csv.{dead}.ab12cd34.part"
    stale.write_text("half an export")
    alive = tmp_path / f".out.csv.{os.getppid()}.ab12cd34.part"  # a running export's: left alone
    alive.write_text("being written")
    assert banker("ledger", "export", "-o", out, "--db", formula_names).exit_code == 0
    assert not stale.exists() and alive.exists() and out.exists()


def test_a_planted_link_at_a_temporary_name_is_not_followed(formula_names, tmp_path, monkeypatch):
    import secrets

    victim = tmp_path / "victim"
    victim.write_text("keep me")
    monkeypatch.setattr(secrets, "token_hex", lambda n: "planted0")
    (tmp_path / f".out.csv.{os.getpid()}.planted0.part").symlink_to(victim)
    result = banker("ledger", "export", "-o", tmp_path / "out.csv", "--db", formula_names)
    assert result.exit_code == 3 and "cannot write" in result.output
    assert victim.read_text() == "keep me"
