"""Names with spaces and quotes on the serial test port and in keypad scripts (the quoting rule, banker.text.quoting)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, strategies as st

from banker.script import syntax as script

from banker.script import run as script_run
from banker.errors import ScriptError
from banker.text.quoting import quote, words
from drivers.serial_port import PortSession, SerialTestPort
from firmware_sim.serial_backend import CoreTarget, NullModem, SerialBackend
from tests.hw.test_hw_serial import run_device

NAMES = ["Player 1", 'say "hi"', "back\\slash", "two  spaces", "x#y", 'ends with \\"']


@pytest.fixture
def session(ledger):
    return PortSession(CoreTarget(ledger))


def ask(session, line):
    return json.loads(session.answer(line))


@given(st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20))
def test_a_quoted_name_reads_back_as_itself(name):
    assert words(f"balance? {quote(name)}  # note") == ["balance?", name]


def test_a_line_without_quotes_splits_as_it_always_did():
    for line in ("enrol Alice A1", "press 1 . 5 M  # pay", "insert left 04a1b2c3", "  # only a note", ""):
        assert words(line) == line.split("#", 1)[0].split()


@pytest.mark.parametrize("line, message", [
    ('balance? "Player 1', "not closed"),
    ('balance? "Player"1', "end its word"),
    ('balance? Play"er', "only start a word"),
])
def test_a_broken_quote_is_an_error_line(session, line, message):
    answer = ask(session, line)
    assert answer["ok"] is False and message in answer["error"]


def test_the_keypads_own_default_names_can_be_asked_for(session):
    ask(session, 'enrol "Player 1" A1')
    ask(session, 'enrol "say \\"hi\\"" B2')
    assert ask(session, "balance? Player 1") == {"ok": True, "name": "Player 1", "balance": 15_000_000}
    assert ask(session, 'balance? "Player 1"')["balance"] == 15_000_000
    assert ask(session, 'worth? "say \\"hi\\""') == {"ok": True, "name": 'say "hi"', "worth": 15_000_000}
    ask(session, 'insert right "Player 1"')
    assert ask(session, "press 1 M")["screen"][0] == "Player 1 -1M"
    assert ask(session, "balance? Player 1")["balance"] == 14_000_000
    assert ask(session, "balance? Bob") == {"ok": True, "name": "Bob", "balance": None}  # older lines unchanged


def test_a_pin_field_after_a_quoted_name(session, ledger):
    from banker.fold.authority import hash_pin
    from banker.journal.records import PinChange

    ledger.commit(PinChange(hash_pin("2468", b"0123456789abcdef")))
    assert ask(session, 'enrol "Player 1" A1 pin=2468')["ok"]
    assert ask(session, 'balance? "Player 1"')["balance"] == 15_000_000


def test_names_with_spaces_and_quotes_both_ways_over_the_port(ledger):
    text = "".join(f"enrol {quote(n)}\n" for n in NAMES) + f"insert right {quote(NAMES[1])}\npress 2 M\n" + \
        f"expect balance {quote(NAMES[1])} 13M\nexpect balance {quote(NAMES[0])} 15M\n"
    with NullModem() as cable, SerialTestPort(cable.device_url, CoreTarget(ledger)) as device:
        def client(result):
            with SerialBackend(cable.client_url) as remote:
                result["failure"] = script_run.run(script.parse(text), remote)
                result["balances"] = remote.balances()
                result["each"] = {n: remote.balance(n) for n in NAMES}

        result = run_device(device, client)
    assert result["failure"] is None
    assert set(result["balances"]) == set(NAMES)
    assert result["each"] == {n: 13_000_000 if n == NAMES[1] else 15_000_000 for n in NAMES}


def test_expect_screen_keeps_its_text_as_it_is():
    (line,) = script.parse('expect screen say "hi\n')
    assert line.step.text == 'say "hi'
    with pytest.raises(ScriptError, match="line 1: a quoted name is not closed"):
        script.parse('insert left "Player 1\n')
