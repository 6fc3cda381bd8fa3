"""The command line's attack suite: hostile inputs and acts, each with its exit code, its message, an unchanged ledger.

Threat model: a player at the table (or a careless builder) who can type any
command line, write any keypad script or config, point ``--db`` anywhere and
plug in a device that answers anything, but holds neither the banker's PIN
nor the chain's key. Every case must end in its documented exit code
(docs/cli.md) with one ``banker: ...`` line and never a traceback; every
refused case leaves the ledger's journal as it was (wrong PINs, which are
journalled on purpose so the lockout holds, aside). A Hypothesis fuzz of
arguments and script text closes the file.
"""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings, strategies as st

from banker_cli.main import cli
from tests.cli.support import PIN, a_ledger, banker




def journal(db: Path) -> list[str]:
    """The ledger's records, as a fingerprint (wrong PINs and upkeep snapshots aside); [] when there is no file."""
    if not db.exists():
        return []
    from store import SqliteStore

    with SqliteStore(db, writer=False) as store:
        return [repr(r) for r in store.records() if type(r).__name__ not in ("PinFailure", "Snapshot")]



def never_a_traceback(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output


# -- the table --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Attack:
    """``args`` run against a ledger holding :data:`GAME` ({db}, {script}, {config}, {dir} filled in)."""

    name: str
    args: tuple[str, ...]
    code: int
    says: str
    script: bytes | None = None  # written to {script}
    config: bytes | None = None  # written to {config}
    pin: bool = False            # the ledger has the banker's PIN
    changes: bool = False        # the act is allowed to change the journal (a failing expect after a payment)
    env: dict = field(default_factory=dict)


def script(text: str | bytes, code: int, says: str, **kw) -> Attack:
    data = text.encode() if isinstance(text, str) else text
    return Attack(kw.pop("name", says), ("script", "{script}", "--db", "{db}", *kw.pop("extra", ())), code, says,
                  script=data, **kw)


def cmd(*args: str, code: int, says: str, **kw) -> Attack:
    return Attack(kw.pop("name", " ".join(args)[:40]), (*args, "--db", "{db}"), code, says, **kw)


PAY = "insert left Alice\ninsert right Bob\npress 1 M\n"

ATTACKS = [
    # scripts that are not UTF-8, or carry digits that are not ASCII
    script(b"insert left Alice\npress 1 M\n\xff\xfe\n", 2, "line 3: not UTF-8", name="bad byte"),
    script("enrol Zoë\n".encode("latin-1"), 2, "line 1: not UTF-8", name="latin-1 name"),
    script("press 1 M\n".encode("utf-16"), 2, "line 1: not UTF-8", name="utf-16 file"),
    script(b"\xef\xbb\xbf" + PAY.encode(), 0, "passed", changes=True, name="a BOM is fine"),
    script(PAY + "wait ١٢\n", 2, "line 4: '١' is not a digit 0-9", name="arabic wait"),
    script(PAY + "press ²\n", 2, "line 4: '²' is not a digit 0-9", name="superscript key"),
    script(PAY + "expect houses boardwalk ²\n", 2, "is not a digit 0-9", name="superscript count"),
    script(PAY + "expect balance Alice ١٢M\n", 2, "is not a digit 0-9", name="arabic amount"),
    script(PAY + "expect balance Alice １２M\n", 2, "is not a digit 0-9", name="fullwidth amount"),
    script(PAY + "hold C ٣\n", 2, "is not a digit 0-9", name="arabic hold"),
    # numbers out of range
    script(PAY + "expect balance Alice 1,5M\n", 2, "line 4: not an amount: 1,5M", name="1,5M"),
    script(PAY + "expect balance Alice 99999999999999999999999\n", 2, "at most 999,999,999,999", name="huge amount"),
    script(PAY + f"expect worth Alice {2**64}\n", 2, "at most", name="2**64 worth"),
    script(PAY + "expect houses boardwalk 99999999999999999999\n", 2, "not a count", name="huge count"),
    script(PAY + "wait 1e999\n", 2, "seconds", name="infinite wait"),
    script(PAY + "wait nan\n", 2, "seconds", name="nan wait"),
    script(PAY + "wait -1\n", 2, "seconds", name="negative wait"),
    script(PAY + "hold C 99999999\n", 2, "seconds", name="endless hold"),
    # a script is checked whole before anything runs
    script(PAY + PAY + "enrol-deed nowhere\n", 2, "line 7", name="unknown deed at the end"),
    script(PAY + "expect owner nowhere bank\n", 2, "line 4", name="unknown deed in an expect"),
    script(PAY + "expect balance Alice 99M\nenrol-deed nowhere\n", 2, "line 5", name="unknown deed past a failed expect"),
    script(PAY + "enrol Eve A1\n", 2, "line 4", name="enrolment refused: UID taken"),
    script(PAY + "enrol bank\n", 2, "line 4", name="enrolment refused: bank"),
    script(PAY + "enrol Eve ::::\n", 2, "line 4: not a card UID", name="empty UID"),
    script(PAY + "enrol Eve " + "A" * 21 + "\n", 2, "line 4: not a card UID", name="UID too long"),
    script(PAY + "frobnicate\n", 2, "line 4: unknown step", name="unknown step"),
    script(PAY + "press X\n", 2, "line 4: unknown key", name="unknown key"),
    script(PAY + "insert middle Alice\n", 2, "line 4: reader must be left or right", name="unknown reader"),
    script(PAY + "expect balance Alice 18M\n", 0, "passed", changes=True, name="an honest script passes"),
    script(PAY + "expect balance Alice 99M\n", 1, "line 4: expected balance Alice 99M", changes=True,
           name="a failing expect"),
    script("", 0, "passed: 0 expectations held, 0 transactions posted", name="an empty script"),
    script("# nothing\n" * 5000, 0, "passed", name="only comments"),
    # the banker's authority
    script("enrol Eve\n", 4, "banker's PIN", pin=True, name="script enrols without the PIN"),
    script("enrol-deed boardwalk\n", 4, "banker's PIN", pin=True, name="script tags a deed without the PIN"),
    script("enrol Eve\n", 4, "wrong banker PIN", pin=True, extra=("--pin", "1111"), name="script with a wrong PIN"),
    script("enrol Eve\n", 0, "passed", pin=True, extra=("--pin", PIN), changes=True, name="script with the PIN"),
    script("enrol Alice\n" + PAY, 0, "passed", pin=True, changes=True, name="enrolled already: no PIN needed"),
    cmd("cards", "enrol", "Eve", code=4, says="banker's PIN", pin=True),
    cmd("cards", "enrol", "Eve", "--pin", "٢٤٦٨", code=4, says="wrong banker PIN", pin=True, name="arabic PIN"),
    cmd("cards", "enrol", "Eve", "--pin", "２４６８", code=4, says="wrong banker PIN", pin=True,
        name="fullwidth PIN"),
    cmd("cards", "enrol", "Eve", "--pin", "0000", code=4, says="wrong banker PIN", pin=True),
    cmd("cards", "rename", "Alice", "Al", code=4, says="banker's PIN", pin=True),
    cmd("cards", "remove", "Bob", code=4, says="banker's PIN", pin=True),
    cmd("pin", "set", "--new", "1111", code=4, says="banker's PIN", pin=True),
    cmd("game", "new", "--start", "20M", code=4, says="banker's PIN", pin=True),
    cmd("game", "restore", "1", code=4, says="banker's PIN", pin=True),
    cmd("deeds", "enrol", "boardwalk", "--uid", "DD", code=4, says="banker's PIN", pin=True),
    cmd("ledger", "undo", "1", code=1, says="can't be undone", pin=True),   # refused as it stands, before any PIN
    # lenient money, names and UIDs on the command line
    cmd("game", "new", "--start", "1,5M", code=2, says="not an amount"),
    cmd("game", "new", "--start", "١٢M", code=2, says="not an amount"),
    cmd("game", "new", "--start", "12²", code=2, says="not an amount"),
    cmd("game", "new", "--start", "99999999999999999999", code=2, says="at most"),
    cmd("game", "new", "--start", "-5M", code=2, says="not a positive amount"),
    cmd("game", "new", "--go", "0", code=2, says="zero"),
    cmd("game", "new", "--luxury-tax", "1e5", code=2, says="not an amount"),
    cmd("game", "new", "--start", "9" * 5000, code=2, says="not an amount", name="5000 digits"),
    cmd("pin", "set", "--new", "١٢٣٤", code=2, says="4 to 8 digits 0-9"),
    cmd("pin", "set", "--new", "12", code=2, says="4 to 8 digits"),
    cmd("pin", "set", "--new", "123456789", code=2, says="4 to 8 digits"),
    cmd("cards", "enrol", "Eve", "--uid", "", code=2, says="can't be empty"),
    cmd("cards", "enrol", "Eve", "--uid", "   ", code=2, says="can't be empty"),
    cmd("cards", "enrol", "Eve", "--uid", "zz", code=2, says="not a card UID"),
    cmd("cards", "enrol", "Eve", "--uid", "A" * 100, code=2, says="not a card UID"),
    cmd("cards", "enrol", "Eve", "--uid", "A1", code=1, says="A1"),
    cmd("cards", "enrol", "alice", code=1, says="already enrolled"),
    cmd("cards", "enrol", "bank", code=1, says="bank"),
    cmd("cards", "enrol", "Al\x07ice", code=1, says="not a usable name"),
    cmd("cards", "rename", "Alice", "Bob", code=1, says="Bob"),
    cmd("cards", "enrol", "\u0410lice", code=1, says="looks like Alice", name="Cyrillic A beside Alice"),
    cmd("cards", "enrol", "b\u0430nk", code=1, says="looks like the bank", name="Cyrillic a in bank"),
    cmd("cards", "enrol", "B0b", code=1, says="looks like Bob", name="a zero for an o"),
    cmd("cards", "rename", "Bob", "A1ice", code=1, says="looks like Alice", name="rename to a look-alike"),
    script("enrol \u0410lice\n", 2, "line 1", name="a script enrols a look-alike"),
    cmd("cards", "remove", "Nobody", code=1, says="no card is enrolled"),
    cmd("deeds", "enrol", "nowhere", "--uid", "AB", code=2, says="nowhere"),
    cmd("deeds", "enrol", "boardwalk", "--uid", "", code=2, says="can't be empty"),
    cmd("deeds", "list", "--edition", "nowhere", code=2, says="nowhere"),
    cmd("deeds", "list", "--edition", "../../../etc/passwd", code=2, says="passwd"),
    # numbers past the ledger's range as ids
    cmd("game", "restore", "99999999999999999999999", code=2, says="GAME_ID"),
    cmd("game", "restore", "0", code=2, says="GAME_ID"),
    cmd("game", "restore", "42", code=1, says="no game 42"),
    cmd("ledger", "undo", "99999999999999999999", code=2, says="TX_ID"),
    cmd("ledger", "undo", str(2**63 - 1), code=1, says="no transaction"),
    cmd("ledger", "show", "--game", "99999999999999999999999", code=1, says="no game"),
    cmd("ledger", "export", "--game", "-1", code=1, says="no game -1"),
    cmd("ledger", "export", "-o", "{dir}/no/such/folder/x.csv", code=3, says="cannot write"),
    cmd("ledger", "export", "--format", "xml", code=2, says="xml"),
    # what leaves the unit: -o onto what isn't a file (docs/security.md, "What leaves the unit")
    cmd("ledger", "export", "-o", "/dev/null", code=0, says="", name="export -o /dev/null: written through"),
    cmd("ledger", "export", "-o", "/dev/stdout", code=0, says="", name="export -o /dev/stdout: written through"),
    cmd("ledger", "export", "-o", "{dir}", code=2, says="directory", name="export -o a folder"),
    cmd("cards", "enrol", "Al\x1b[2Jice", code=1, says="not a usable name", name="an ESC in a name"),
    cmd("cards", "enrol", "Al\u202eice", code=1, says="not a usable name", name="a bidi override in a name"),
    cmd("cards", "remove", "Nob\x1b]0;x\x07ody", code=1, says="Nob\\x1b]0;x\\x07ody", name="ESC in an error line"),
    # configs
    cmd("cards", "list", "--config", "{config}", code=2, says="buzzer.pin", config=b"[buzzer]\npin = 99\n"),
    cmd("cards", "list", "--config", "{config}", code=2, says="line 2: not UTF-8", config=b"[unit]\n\xe9\n"),
    cmd("cards", "list", "--config", "{config}", code=2, says="line 1: not UTF-8", config=b"\x89PNG\r\n\x1a\n",
        name="a picture as config"),
    cmd("cards", "list", "--config", "{config}", code=2, says="not valid TOML", config=b"= = =\n[[[\n"),
    cmd("cards", "list", "--config", "{dir}", code=2, says="config", name="a folder as config"),
    cmd("cards", "enrol", "Eve", "--config", "{config}", code=2, says="house_rules.start_balance",
        config=b"[house_rules]\nstart_balance = 0\n", name="zero start balance"),
    Attack("doctor, pin 99", ("doctor", "--backend", "hw-sim", "--config", "{config}"), 2, "buzzer.pin",
           config=b"[buzzer]\npin = 99\n"),
    Attack("doctor, baud 0", ("doctor", "--backend", "hw-sim", "--config", "{config}"), 2,
           "serial_test_port.baudrate", config=b"[serial_test_port]\nurl = 'loop://'\nbaudrate = 0\n"),
    Attack("doctor, spi_hz 0", ("doctor", "--backend", "hw-sim", "--config", "{config}"), 2,
           "readers.left.spi_hz", config=b"[readers.left]\nspi_hz = 0\n"),
    Attack("run, sleep_after nan", ("run", "--backend", "hw-sim", "--seconds", "0.01", "--config", "{config}",
                                    "--db", "{db}"), 2, "unit.sleep_after", config=b"[unit]\nsleep_after = nan\n"),
    # unbounded input (issue 23): endless files, huge scripts, deep configs
    Attack("a script that never ends", ("script", "/dev/zero", "--db", "{db}"), 2, "/dev/zero: line 1: longer than"),
    Attack("a sim script that never ends", ("sim", "--script", "/dev/zero", "--screenshot", "{dir}/shot.png", "--db",
                                            "{db}"), 2, "/dev/zero: line 1: longer than 4,096 bytes (the limit"),
    script("expect screen \"\x1b]0;x\x07\u202e\"\n", 1, "\\x1b]0;x\\x07\\u202e",
           name="a script's failing expectation quotes the screen escaped"),
    script("press " + "1 " * 3000 + "\n", 2, "line 1: longer than 4,096 bytes", name="a line too long"),
    script("press 1\n" * 100_001, 2, "line 100001: more than 100,000 steps", name="too many steps"),
    script(("#" * 4000 + "\n") * 1100, 2, "larger than 4,194,304 bytes", name="a script too large"),
    cmd("cards", "list", "--config", "/dev/zero", code=2, says="/dev/zero: larger than", name="an endless config"),
    cmd("cards", "list", "--config", "{config}", code=2, says="attack.toml: larger than",
        config=b"a = " + b"[" * 100_000 + b"]" * 100_000 + b"\n", name="a config nested 100,000 deep"),
    cmd("cards", "list", "--config", "{config}", code=2, says="attack.toml: arrays or tables nested more than",
        config=b"a = " + b"[" * 30_000 + b"]" * 30_000 + b"\n", name="a config nested 30,000 deep"),
    cmd("cards", "list", "--config", "{config}", code=2, says="attack.toml: arrays or tables nested more than",
        config=b"a = " + b"{b = " * 10_000 + b"1" + b"}" * 10_000 + b"\n", name="inline tables 10,000 deep"),
    # names with spaces and quotes (the quoting rule)
    script('enrol "Player 1"\nenrol "say \\"hi\\""\ninsert left "Player 1"\ninsert right "say \\"hi\\""\n'
           'press 1 M\nexpect balance "Player 1" 16M\nexpect balance "say \\"hi\\"" 14M\n', 0, "passed",
           changes=True, name="names with spaces and quotes"),
    script('insert left "Alice\n', 2, "line 1: a quoted name is not closed", name="a quote left open"),
    # where the ledger is
    Attack("a missing ledger, read", ("cards", "list", "--db", "{dir}/typo.db"), 3, "there is no ledger at"),
    Attack("a missing ledger, verify", ("ledger", "verify", "--db", "{dir}/typo.db"), 3, "there is no ledger at"),
    Attack("a missing ledger, export", ("ledger", "export", "--db", "{dir}/typo.db"), 3, "there is no ledger at"),
    Attack("a folder as ledger", ("cards", "list", "--db", "{dir}"), 2, "directory"),
    Attack("a NUL in the path", ("cards", "list", "--db", "{dir}/a\x00b.db"), 2, "NUL"),
    Attack("not a ledger", ("cards", "list", "--db", "{config}"), 3, "not a banker ledger",
           config=b"just some text\n" * 300),
    # the ledger's key: export, import, adopt
    Attack("key import, not a key", ("key", "import", "{config}"), 2, "not an exported banker key",
           config=b"=HYPERLINK(1)\n"),
    Attack("key import, damaged", ("key", "import", "{config}"), 2, "damaged",
           config=b"banker-key:v1:abc123:00ff\n"),
    Attack("key import, bad id", ("key", "import", "{config}"), 2, "damaged",
           config=b"banker-key:v1:../../etc:" + b"00" * 32 + b"\n"),
    Attack("key import, endless", ("key", "import", "/dev/zero"), 2, "exported banker key"),  # one line, no more
    Attack("key import, binary", ("key", "import", "{config}"), 2, "cannot read", config=b"\xff\xfe" * 10),
    Attack("key import, a folder", ("key", "import", "{dir}"), 2, "directory"),
    cmd("key", "export", code=2, says="say where"),
    cmd("key", "export", "-o", "{dir}", code=2, says="directory", name="key export onto a folder"),
    cmd("key", "export", "-o", "{config}", code=2, says="never replaced", config=b"my notes\n",
        name="key export over another file"),
    cmd("key", "export", "-o", "/dev/null", code=2, says="not a plain file", name="key export onto a device"),
    cmd("key", "adopt", "--pin", PIN, code=3, says="nothing to adopt", pin=True, name="adopt a ledger whose key is here"),
    cmd("game", "restore", "--backup", "{config}", "--pin", PIN, code=3, says="not a banker ledger", pin=True,
        config=b"SQLite format 3\x00" + b"\x00" * 100, name="restore a forged non-ledger"),
]


@pytest.mark.parametrize("attack", ATTACKS, ids=lambda a: a.name)
def test_attack(attack, tmp_path):
    db = a_ledger(tmp_path, pin=PIN if attack.pin else None)
    files = {"{db}": str(db), "{script}": str(tmp_path / "attack.kps"), "{config}": str(tmp_path / "attack.toml"),
             "{dir}": str(tmp_path)}
    if attack.script is not None:
        Path(files["{script}"]).write_bytes(attack.script)
    if attack.config is not None:
        Path(files["{config}"]).write_bytes(attack.config)
    before = journal(db)
    args = []
    for arg in attack.args:
        for key, value in files.items():
            arg = arg.replace(key, value)
        args.append(arg)
    result = banker(*args, env=attack.env or None)
    never_a_traceback(result)
    assert result.exit_code == attack.code, result.output
    assert attack.says in result.output
    if attack.code:
        assert result.output.count("banker: ") + result.output.count("Error: ") >= 1
    if not attack.changes:
        assert journal(db) == before
    for stray in ("typo.db",):
        assert not (tmp_path / stray).exists()


# -- a ledger whose journal isn't the one anchored, or a file of the first release in its place ----------

PAY = "insert left Alice\ninsert right Bob\npress 5 M\nremove left\nremove right\n"

#: Every command that writes, against a rolled-back ledger: exit 3 naming the problem, nothing written.
WRITERS = [
    ("script", "{script}", "--db", "{db}"),
    ("cards", "enrol", "Carol", "--pin", PIN, "--db", "{db}"),
    ("cards", "rename", "Alice", "Al", "--pin", PIN, "--db", "{db}"),
    ("cards", "remove", "Bob", "--pin", PIN, "--db", "{db}"),
    ("game", "new", "--pin", PIN, "--db", "{db}"),
    ("game", "restore", "1", "--pin", PIN, "--db", "{db}"),
    ("ledger", "undo", "--pin", PIN, "--db", "{db}"),
    ("pin", "set", "--new", "1357", "--pin", PIN, "--db", "{db}"),
    ("run", "--backend", "hw-sim", "--seconds", "0.1", "--db", "{db}"),
    ("sim", "--script", "{script}", "--screenshot", "{dir}/shot.png", "--db", "{db}"),
]


def rolled_back(tmp_path: Path) -> Path:
    """Copy the ledger, pay 5M, put the old copy back: the attack of issue 23."""
    import shutil

    db = a_ledger(tmp_path, pin=PIN)
    shutil.copyfile(db, tmp_path / "copy.db")
    (tmp_path / "attack.kps").write_text(PAY)
    assert banker("script", tmp_path / "attack.kps", "--db", db).exit_code == 0
    shutil.copyfile(tmp_path / "copy.db", db)
    return db


def filled(args, tmp_path, db):
    files = {"{db}": str(db), "{script}": str(tmp_path / "attack.kps"), "{dir}": str(tmp_path)}
    out = []
    for arg in args:
        for key, value in files.items():
            arg = arg.replace(key, value)
        out.append(arg)
    return out


@pytest.mark.parametrize("args", WRITERS, ids=lambda a: " ".join(a[:2]))
def test_a_rolled_back_ledger_is_refused_by_every_command_that_writes(args, tmp_path):
    db = rolled_back(tmp_path)
    before = journal(db)
    result = banker(*filled(args, tmp_path, db))
    never_a_traceback(result)
    assert result.exit_code == 3, result.output
    assert "refusing to write: its journal is behind its anchor" in result.output and "ledger accept" in result.output
    assert journal(db) == before


def test_a_rolled_back_ledger_is_read_verified_and_accepted_with_the_pin(tmp_path):
    db = rolled_back(tmp_path)
    assert banker("cards", "list", "--db", db).exit_code == 0
    result = banker("ledger", "verify", "--db", db)
    assert result.exit_code == 1 and "are gone" in result.output
    result = banker("ledger", "accept", "--db", db)
    assert result.exit_code == 4 and "PIN" in result.output
    result = banker("ledger", "accept", "--pin", PIN, "--db", db)
    assert result.exit_code == 0, result.output
    assert banker("script", tmp_path / "attack.kps", "--db", db).exit_code == 0
    result = banker("ledger", "verify", "--db", db)
    assert result.exit_code == 0 and "notice: journal entry" in result.output and "accepted the journal" in result.output


@pytest.mark.parametrize("args", [("cards", "list"), ("ledger", "verify"), ("cards", "enrol", "Eve"),
                                  ("ledger", "upgrade")], ids=" ".join)
def test_a_first_release_file_put_where_a_keyed_ledger_was_is_refused(args, tmp_path):
    import shutil

    db = a_ledger(tmp_path)
    shutil.copyfile(Path(__file__).resolve().parents[1] / "fixtures" / "ledger-v1.db", db)
    for stray in ("-wal", "-shm"):
        Path(str(db) + stray).unlink(missing_ok=True)
    result = banker(*args, "--db", db)
    never_a_traceback(result)
    assert result.exit_code == 3, result.output
    assert "earlier release (schema 1" in result.output and "keyed ledger" in result.output
    import sqlite3

    assert sqlite3.connect(db).execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()[0] == "1"


def test_a_damaged_anchor_is_exit_1_for_verify_and_3_for_a_writer(tmp_path):
    db = a_ledger(tmp_path)
    from store import Keyring, SqliteStore

    with SqliteStore(db, writer=False) as store:
        (Keyring().folder / f"{store.ledger_id}.anchor").write_text('{"seq": 1e400, "hash": "x"}')
    result = banker("ledger", "verify", "--db", db)
    never_a_traceback(result)
    assert result.exit_code == 1 and "anchor" in result.output and "damaged" in result.output
    result = banker("cards", "enrol", "Carol", "--db", db)
    assert result.exit_code == 3 and "damaged" in result.output


def test_restoring_a_foreign_backup_with_a_wrong_pin_changes_nothing(tmp_path, monkeypatch):
    """Another ledger's backup, whose key isn't here, over this one: a wrong PIN is refused (exit 4, counted here),
    nothing is replaced and no key is made; a key kept here that doesn't verify a backup refuses it (exit 3)."""
    from store.keys import KEY_ENV

    foreign = tmp_path / "foreign"
    foreign.mkdir()
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "their-keys"))
    theirs = a_ledger(foreign, pin=PIN)
    monkeypatch.setenv(KEY_ENV, str(tmp_path / "our-keys"))
    db = a_ledger(tmp_path, pin=PIN)
    before = journal(db)
    result = banker("game", "restore", "--backup", theirs, "--pin", "1357", "--db", db)
    never_a_traceback(result)
    assert result.exit_code == 4 and "wrong banker PIN" in result.output
    assert journal(db) == before and len(list((tmp_path / "our-keys").glob("*.key"))) == 1
    (tmp_path / "our-keys" / (next((tmp_path / "their-keys").glob("*.key")).name)).write_text("00" * 32 + "\n")
    result = banker("game", "restore", "--backup", theirs, "--pin", PIN, "--db", db)
    never_a_traceback(result)
    assert result.exit_code == 3 and "doesn't verify" in result.output and journal(db) == before


# -- a device that answers anything over --port ------------------------------------------------


class FakeDevice:
    """A TCP "serial port" (``socket://``): its device answers each line with ``answer(line)`` (None: silence)."""

    def __init__(self, answer) -> None:
        self.answer = answer
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"socket://127.0.0.1:{self.server.getsockname()[1]}"
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.server.settimeout(10)
        try:
            conn, _ = self.server.accept()
        except OSError:
            return
        with conn:
            buffer = b""
            while True:
                try:
                    data = conn.recv(4096)
                except OSError:
                    return
                if not data:
                    return
                buffer += data
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    reply = self.answer(line.decode())
                    if reply is not None:
                        conn.sendall(reply)

    def close(self) -> None:
        self.server.close()


HELLO = b'{"ok": true, "protocol": "banker-serial", "version": 1}\n'


def device(**answers):
    """A device answering ``hello?`` properly, each verb in ``answers`` as given, anything else ``{"ok": true}``."""
    def answer(line: str):
        verb = line.split(" ", 1)[0]
        if verb in answers:
            return answers[verb]
        return HELLO if verb == "hello?" else b'{"ok": true, "screen": ["x"]}\n'
    return FakeDevice(answer)


PORT_ATTACKS = [
    ("garbage answer", {"press": b"\x00\xff garbage\n"}, "press 1\n", 3, "not JSON"),
    ("a list, not an object", {"press": b"[1, 2]\n"}, "press 1\n", 3, "not a protocol answer"),
    ("balance missing", {"balance?": b'{"ok": true}\n'}, "expect balance Alice 15M\n", 3, "'balance'"),
    ("balance a string", {"balance?": b'{"ok": true, "balance": "lots"}\n'}, "expect balance Alice 15M\n",
     3, "a whole number"),
    ("balance a bool", {"balance?": b'{"ok": true, "balance": true}\n'}, "expect balance Alice 15M\n",
     3, "a whole number"),
    ("screen not a list", {"screen?": b'{"ok": true, "screen": 5}\n'}, "expect screen Paid\n", 3, "lines"),
    ("screen of numbers", {"screen?": b'{"ok": true, "screen": [1, 2]}\n'}, "expect screen Paid\n", 3,
     "lines"),
    ("houses out of range", {"houses?": b'{"ok": true, "houses": 99}\n'}, "expect houses boardwalk 1\n",
     3, "a count 0-5"),
    ("mortgaged not a bool", {"mortgaged?": b'{"ok": true, "mortgaged": "no"}\n'},
     "expect mortgaged boardwalk no\n", 3, "yes or no"),
    ("bank without counts", {"bank-buildings?": b'{"ok": true}\n'}, "expect bank-houses 32\n", 3, "counts"),
    ("too deep to read", {"press": b"[" * 5_000 + b"\n"}, "press 1\n", 3, "answered"),
    ("wrong protocol", {"hello?": b'{"ok": true, "protocol": "other", "version": 9}\n'}, "press 1\n", 3,
     "speaks"),
    ("a refused step", {"enrol": b'{"ok": false, "error": "name taken"}\n'}, "enrol Alice\n", 2,
     "device refused"),
    ("an expect that fails", {"balance?": b'{"ok": true, "balance": 1}\n'}, "expect balance Alice 15M\n",
     1, "expected balance Alice 15M, got 1"),
    ("an honest device", {"balance?": b'{"ok": true, "balance": 15000000}\n'},
     "expect balance Alice 15M\n", 0, "passed on socket://"),
]


@pytest.mark.parametrize("name, answers, text, code, says", PORT_ATTACKS, ids=[a[0] for a in PORT_ATTACKS])
def test_a_device_over_the_port_that_answers_anything(tmp_path, name, answers, text, code, says):
    path = tmp_path / "s.kps"
    path.write_text(text)
    fake = device(**answers)
    try:
        result = banker("script", path, "--port", fake.url)
    finally:
        fake.close()
    never_a_traceback(result)
    assert result.exit_code == code, result.output
    assert says in result.output


@pytest.mark.parametrize("url, says", [("loop://", "not JSON"), ("socket://127.0.0.1:1", "127.0.0.1:1"),
                                       ("/dev/no-such-port", "no-such-port"), ("bogus://x", "bogus")])
def test_a_port_that_is_no_banker_is_exit_3(tmp_path, url, says):
    path = tmp_path / "s.kps"
    path.write_text("press 1\n")
    result = banker("script", path, "--port", url)
    never_a_traceback(result)
    assert result.exit_code == 3, result.output
    assert says in result.output


def test_a_silent_device_times_out_as_exit_3(tmp_path):
    from banker.script import syntax as scripts
    from banker_cli.device_cli import script_on_port

    fake = FakeDevice(lambda line: HELLO if line == "hello?" else None)
    try:
        with pytest.raises(SystemExit) as stopped:
            script_on_port("s.kps", scripts.parse("press 1\n"), fake.url, as_json=False, quiet=False, timeout=0.3)
    finally:
        fake.close()
    assert stopped.value.code == 3


# -- a full disk, and a script whose payments all fail to save -------------------------------


def test_a_script_whose_payments_all_fail_to_save_does_not_pass(tmp_path, monkeypatch):
    from banker.errors import LedgerError
    from store import SqliteStore

    db = a_ledger(tmp_path)
    before = journal(db)
    path = tmp_path / "s.kps"
    path.write_text(PAY * 3 + "expect screen NOT SAVED\n")

    def full(self, record):
        raise LedgerError("the disk is full: cannot write to the ledger")

    monkeypatch.setattr(SqliteStore, "append", full)
    result = banker("script", path, "--db", db)
    monkeypatch.undo()
    never_a_traceback(result)
    assert result.exit_code == 3, result.output
    assert "3 change(s) were not saved" in result.output and "disk is full" in result.output
    assert journal(db) == before


# -- the fuzz: any arguments, any script text -------------------------------------------------

HOSTILE = st.sampled_from(["", " ", "-", "--", "0", "-1", "1,5M", "15M", "١٢M", "²", "99999999999999999999999",
                           "nan", "inf", "1e999", "Alice", "bank", "A1", "zz", "\x00", "\x07", "Zoë", "../x", "%s",
                           "{db}", "boardwalk", "--pin", "2468", "--uid", "--start", "--json", "--game", "-o"])
COMMAND = st.sampled_from([["cards", "list"], ["cards", "enrol"], ["cards", "rename"], ["cards", "remove"],
                           ["game", "list"], ["game", "new"], ["game", "restore"], ["game", "show"],
                           ["ledger", "show"], ["ledger", "export"], ["ledger", "undo"], ["ledger", "verify"],
                           ["deeds", "list"], ["deeds", "enrol"], ["pin", "set"], ["game", "backups"]])
FUZZ = settings(max_examples=400, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@pytest.fixture(scope="module")
def fuzz_ledger(tmp_path_factory):
    return a_ledger(tmp_path_factory.mktemp("fuzz"))


SANE = st.sampled_from(["Alice", "Bob", "Eve", "1", "2", "3", "boardwalk", "15M", "500K", "2468", "AB12", "--pin",
                        "--new", "--uid", "--start", "--go", "--format", "json", "csv", "--game"])


@FUZZ
@given(command=COMMAND, words=st.lists(st.one_of(HOSTILE, SANE, SANE, st.text(max_size=12)), max_size=5))
def test_fuzz_command_lines(fuzz_ledger, command, words):
    before = journal(fuzz_ledger)
    args = [*command, *(w.replace("{db}", str(fuzz_ledger)) for w in words), "--db", str(fuzz_ledger)]
    result = CliRunner().invoke(cli, args, input="")
    event(f"exit {result.exit_code}")
    never_a_traceback(result)
    assert result.exit_code in (0, 1, 2, 3, 4), result.output
    if result.exit_code:
        assert journal(fuzz_ledger) == before


TOKEN = st.one_of(HOSTILE, st.sampled_from(["left", "right", "M", "K", "C", "GO", "FN", ".", "1", "5", "0.25",
                                            "yes", "no", "owner", "houses", "balance", "screen", "worth"]),
                  st.text(max_size=6))
LINE = st.builds(lambda verb, words: " ".join([verb, *words]),
                 st.sampled_from(["enrol", "insert", "remove", "stack", "tap", "press", "hold", "wait", "expect",
                                  "enrol-deed", "#", ""]),
                 st.lists(TOKEN, max_size=4))
GOOD = st.sampled_from(["insert left Alice", "insert right Bob", "remove left", "remove right", "press 1 M",
                        "press 5 0 0 K", "press C", "press FN", "press GO", "tap left boardwalk", "stack left Bob",
                        "expect balance Alice 17M", "expect screen Paid", "expect owner boardwalk bank",
                        "expect houses boardwalk 0", "expect bank-houses 32", "enrol Alice", "enrol Eve",
                        "enrol-deed boardwalk", "wait 1", "hold C 1", "press 1 2 3 4 5 6 M"])
SCRIPTS = st.lists(st.one_of(LINE, GOOD, GOOD), max_size=8).map(lambda ls: "\n".join(ls).encode("utf-8", "replace"))
RAW = st.one_of(st.binary(max_size=40), SCRIPTS)


@FUZZ
@given(data=RAW)
def test_fuzz_script_text(fuzz_ledger, tmp_path_factory, data):
    before = journal(fuzz_ledger)
    path = tmp_path_factory.mktemp("s") / "fuzz.kps"
    path.write_bytes(data.replace(b"wait", b"wait 0 #").replace(b"hold", b"hold C 0 #"))
    result = CliRunner().invoke(cli, ["script", str(path), "--db", str(fuzz_ledger), "--json"])
    event(f"exit {result.exit_code}")
    never_a_traceback(result)
    assert result.exit_code in (0, 1, 2, 3, 4), result.output
    if result.exit_code in (2, 3, 4):  # refused before anything ran (1: a failing expect, after the steps before it)
        assert journal(fuzz_ledger) == before
    if result.exit_code == 0:
        json.loads(result.output)
