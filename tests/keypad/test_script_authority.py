"""The banker's authority in keypad scripts and over the serial port: the PIN, journalled wrong tries, one lockout.

A ledger with a banker's PIN; scripts on the core and hw-sim backends, and a
session on the serial test port, try to enrol cards and tag deeds with no
PIN, a wrong one and the right one. Wrong tries are records in the ledger,
so they add up across paths and lock the keypad too, on the wall clock that
a script's ``wait`` doesn't move.
"""

from __future__ import annotations

import json

import pytest

from banker.script import syntax as script

from banker.script import run as script_run
from banker.fold.authority import NotAuthorised, hash_pin
from banker.journal.records import PinChange, PinFailure
from banker.script.run import StepNotAuthorised
from drivers.serial_port import PortSession, SerialTestPort
from runtime.script_shell import CoreBackend
from firmware_sim.memory_store import MemoryStore
from firmware_sim.serial_backend import CoreTarget, NullModem, SerialBackend
from banker_cli.backends import script_backend
from runtime.ledger import Ledger
from tests.hw.test_hw_serial import run_device

PIN = "2468"
SCRIPT_BACKENDS = ["core", "hw-sim"]


@pytest.fixture
def guarded():
    """A ledger with Alice enrolled and a banker's PIN set."""
    with Ledger(MemoryStore()) as ledger:
        ledger.enrol("Alice", "A1")
        ledger.commit(PinChange(hash_pin(PIN, b"0123456789abcdef")))
        yield ledger


def wrong_tries(ledger) -> list[str]:
    """The paths of the wrong PINs in the journal, in order."""
    return [r.via for r in ledger.store.records() if isinstance(r, PinFailure)]


def play(spec: str, ledger, text: str, *, pin: str | None = None):
    """Run script ``text`` on backend ``spec`` over ``ledger`` with the banker's ``pin``: its failure, or None."""
    backend = script_backend(spec, ledger, pin=pin)
    try:
        return script_run.run(script.parse(text), backend)
    finally:
        getattr(backend, "close", lambda: None)()


def ask(session: PortSession, line: str) -> dict:
    return json.loads(session.answer(line))


def keypad_says_locked(ledger) -> bool:
    """The banker types the right PIN on the unit's keypad (FN . 2468 M): is PIN entry locked?"""
    unit = CoreBackend(ledger)
    for key in ("FN", ".", *PIN, "M"):
        unit.press(key)
    return "PIN locked" in " | ".join(unit.screen_lines())


# -- scripts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SCRIPT_BACKENDS)
def test_a_script_that_enrols_without_the_pin_is_refused_at_that_line_and_nothing_is_enrolled(guarded, spec):
    with pytest.raises(StepNotAuthorised, match="line 2: this needs the banker's PIN") as refused:
        play(spec, guarded, "wait 1\nenrol Eve E5\ninsert left Eve\n")
    assert refused.value.line == 2 and isinstance(refused.value, NotAuthorised)
    assert guarded.game().card_by_name("Eve") is None
    assert wrong_tries(guarded) == []  # no PIN given is no guess


@pytest.mark.parametrize("spec", SCRIPT_BACKENDS)
def test_a_script_with_the_right_pin_enrols_and_tags_deeds(guarded, spec):
    failure = play(spec, guarded, "enrol Eve E5\nenrol-deed boardwalk B0A4D0\nexpect balance Eve 15M\n", pin=PIN)
    assert failure is None
    assert guarded.game().card_by_name("Eve").uid == "E5" and guarded.game().deed_tags == {"B0A4D0": "boardwalk"}
    assert wrong_tries(guarded) == []


@pytest.mark.parametrize("spec", SCRIPT_BACKENDS)
def test_a_wrong_pin_in_a_script_is_journalled_and_tags_nothing(guarded, spec):
    with pytest.raises(StepNotAuthorised, match="line 1: wrong banker PIN"):
        play(spec, guarded, "enrol-deed boardwalk B0A4D0\n", pin="1111")
    assert guarded.game().deed_tags == {} and wrong_tries(guarded) == ["script"]


def test_a_name_already_enrolled_needs_no_pin(guarded):
    assert play("core", guarded, "enrol Alice A1\ninsert left Alice\npress 1 M\nexpect balance Alice 16M\n") is None


@pytest.mark.parametrize("spec", SCRIPT_BACKENDS)
def test_with_no_pin_set_scripts_enrol_as_they_always_did(spec):
    with Ledger(MemoryStore()) as ledger:
        assert play(spec, ledger, "enrol Eve\nenrol-deed boardwalk\nexpect balance Eve 15M\n") is None
        assert play(spec, ledger, "enrol Bob B2\n", pin="9999") is None  # a PIN given to a ledger without one
        assert {c.name for c in ledger.game().cards} == {"Eve", "Bob"} and wrong_tries(ledger) == []


def test_a_script_may_type_the_pin_on_the_keypad_as_the_banker_does(guarded):
    text = ("insert left Stranger\npress FN\nexpect screen Banker PIN?\npress 2 4 6 8 M\n"
            "expect screen Enrolled\nexpect screen Balance 15M\n")
    assert play("core", guarded, text) is None
    assert len(guarded.game().cards) == 2 and wrong_tries(guarded) == []


# -- the serial port ----------------------------------------------------------------------------


def test_on_the_serial_port_the_pin_field_is_checked_and_never_sent_back(guarded):
    session = PortSession(CoreTarget(guarded, pin=PIN))  # the device's own PIN is no pass: each line carries it
    missing = ask(session, "enrol Eve E5")
    wrong = ask(session, "enrol Eve E5 pin=1357")
    right = ask(session, f"enrol Eve E5 pin={PIN}")
    assert missing == {"ok": False, "error": "this needs the banker's PIN (--pin)", "needs_pin": True, "line": 1}
    assert wrong == {"ok": False, "error": "wrong banker PIN", "needs_pin": True, "line": 2}
    assert right["ok"] and guarded.game().card_by_name("Eve") is not None
    assert ask(session, f"enrol-deed boardwalk B0A4D0 pin={PIN}")["ok"]
    assert wrong_tries(guarded) == ["serial"]
    assert "1357" not in json.dumps([missing, wrong]) and PIN not in json.dumps(right)


def test_a_script_over_the_serial_port_sends_the_banker_pin_with_its_enrolments(guarded):
    text = "enrol Eve E5\nenrol-deed boardwalk B0A4D0\ninsert left Eve\npress 1 M\nexpect balance Eve 16M\n"
    with NullModem() as cable, SerialTestPort(cable.device_url, CoreTarget(guarded)) as device:
        def client(result):
            with SerialBackend(cable.client_url) as remote:
                with pytest.raises(StepNotAuthorised, match="line 1: device refused 'enrol Eve E5': this needs"):
                    script_run.run(script.parse(text), remote)
                remote.pin = PIN  # the next run: banker script --port URL --pin 2468
                result["failure"] = script_run.run(script.parse(text), remote)

        result = run_device(device, client)
    assert result["failure"] is None and guarded.game().deed_tags == {"B0A4D0": "boardwalk"}


# -- one count across paths, on the wall clock ---------------------------------------------------


@pytest.mark.parametrize("spec", SCRIPT_BACKENDS)
def test_three_wrong_pins_across_a_script_and_a_serial_session_lock_the_keypad_too(guarded, spec):
    with pytest.raises(StepNotAuthorised, match="wrong banker PIN"):
        play(spec, guarded, "enrol Eve E5\n", pin="1111")
    with NullModem() as cable, SerialTestPort(cable.device_url, CoreTarget(guarded)) as device:
        def client(result):
            with SerialBackend(cable.client_url, pin="0000") as remote:
                for _ in range(2):
                    with pytest.raises(NotAuthorised, match="wrong banker PIN"):
                        remote.enrol("Eve", "E5")
                with pytest.raises(NotAuthorised, match="locked for"):
                    remote.enrol_deed("boardwalk", "B0A4D0")

        run_device(device, client)
    assert wrong_tries(guarded) == ["script", "serial", "serial"]
    assert keypad_says_locked(guarded)
    with pytest.raises(StepNotAuthorised, match=r"line 1: PIN entry is locked for \d+ s"):
        play(spec, guarded, "enrol Eve E5\n", pin=PIN)  # even the right PIN, while locked
    assert guarded.game().card_by_name("Eve") is None and guarded.game().deed_tags == {}


@pytest.mark.parametrize("spec", SCRIPT_BACKENDS)
def test_a_scripts_wait_does_not_lift_the_lock(guarded, spec):
    session = PortSession(CoreTarget(guarded))
    for _ in range(3):
        assert ask(session, "enrol Eve E5 pin=1111")["needs_pin"]
    with pytest.raises(StepNotAuthorised, match="line 2: PIN entry is locked"):
        play(spec, guarded, "wait 31\nenrol Eve E5\n", pin=PIN)
    unit = CoreBackend(guarded)
    unit.wait(31)  # simulated time: the keypad's lock runs on the wall clock
    for key in ("FN", ".", *PIN, "M"):
        unit.press(key)
    assert "PIN locked" in " | ".join(unit.screen_lines())
    assert ask(session, "wait 31")["ok"]
    assert ask(session, f"enrol Eve E5 pin={PIN}")["error"].startswith("PIN entry is locked")
    assert guarded.game().card_by_name("Eve") is None and len(wrong_tries(guarded)) == 3
