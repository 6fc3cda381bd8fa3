"""The serial test port: framing, the line protocol, and a keypad script run against a device over pyserial."""

from __future__ import annotations

import json
import threading
import time

import pytest
import serial

from banker.script import syntax as script

from banker.script import run as script_run
from drivers.display import OledDisplay
from drivers.errors import SerialProtocolError, SerialTimeout
from render import render_image
from drivers.serial_port import FrameError, LineFramer, PortSession, SerialTestPort
from runtime.script_shell import shell_target
from runtime.shell import Shell
from firmware_sim.display_sim import OledChip
from firmware_sim.keypad_sim import ManualClock
from firmware_sim.serial_backend import CoreTarget, NullModem, SerialBackend

SCRIPT = """\
enrol Alice A1
enrol Bob B2
insert right Bob
press 1 . 5 M
expect balance Bob 13.5M
expect screen Bob -1.5M
insert left Alice
press 2 5 0 K
expect balance Alice 15.25M
remove right
press GO
expect balance Alice 17.25M
remove left
hold C 3
expect screen New game
wait 61
"""


# -- framing ---------------------------------------------------------------------------

def test_lines_split_across_reads_and_crlf_are_framed():
    framer = LineFramer()
    assert framer.feed(b"pre") == []
    assert framer.feed(b"ss 1\r\nscreen?\nbal") == ["press 1", "screen?"]
    assert framer.feed(b"ances?\n") == ["balances?"]


def test_a_line_too_long_gives_one_error_and_the_next_line_is_read_normally():
    framer = LineFramer(max_line=16)
    out = framer.feed(b"x" * 40) + framer.feed(b"y" * 40 + b"\nscreen?\n")
    assert len(out) == 2 and isinstance(out[0], FrameError) and "too long" in out[0]
    assert out[1] == "screen?"


@pytest.mark.parametrize("raw, message", [(b"press \xff\n", "UTF-8"), (b"press\x001\n", "control")])
def test_bytes_that_are_not_text_are_an_error(raw, message):
    (line,) = LineFramer().feed(raw)
    assert isinstance(line, FrameError) and message in line


# -- the protocol, without I/O -----------------------------------------------------------

@pytest.fixture
def session(ledger):
    return PortSession(CoreTarget(ledger))


def ask(session, line):
    answer = session.answer(line)
    return None if answer is None else json.loads(answer)


def test_steps_are_carried_out_and_answered_with_the_screen(session):
    assert ask(session, "enrol Bob B2") == {"ok": True, "screen": ["Monopoly Bank", "Insert a card", "+ left  - right"]}
    ask(session, "insert right Bob")
    assert ask(session, "press 5 0 0 K")["screen"][0] == "Bob -500K"
    assert ask(session, "balances?") == {"ok": True, "balances": {"Bob": 14_500_000}}
    assert ask(session, "balance? Bob") == {"ok": True, "name": "Bob", "balance": 14_500_000}
    assert ask(session, "balance? Nobody")["balance"] is None
    assert ask(session, "status?")["volume"] == 2


def test_a_card_can_be_inserted_by_its_uid(session):
    ask(session, "enrol Bob 04A1B2C3")
    assert ask(session, "insert left 04a1b2c3")["screen"][0] == "+ Bob"


@pytest.mark.parametrize("line, error", [
    ("fly me to the moon", "unknown step"),
    ("press X", "unknown key"),
    ("expect screen Bob", "client"),
    ("wait 4000", "600"),
    ("colour?", "unknown query"),
    ("balance?", "usage"),
])
def test_bad_input_is_an_error_line_never_a_crash(session, line, error):
    answer = ask(session, line)
    assert answer["ok"] is False and error in answer["error"] and answer["line"] == 1
    assert ask(session, "screen?")["ok"]


def test_blank_lines_and_comments_get_no_answer(session):
    assert ask(session, "") is None and ask(session, "   # a note") is None
    assert ask(session, "hello?") == {"ok": True, "protocol": "banker-serial", "version": 1}


# -- over pyserial -----------------------------------------------------------------------

def run_device(port: SerialTestPort, client) -> dict:
    """Serve ``port`` on this thread (it owns the unit) while ``client(result)`` runs on another."""
    result: dict = {}

    def side():
        try:
            client(result)
        except BaseException as exc:  # handed back to the test thread
            result["error"] = exc

    worker = threading.Thread(target=side)
    worker.start()
    deadline = time.monotonic() + 30
    while worker.is_alive() and time.monotonic() < deadline:
        port.poll()
        time.sleep(0.0005)
    worker.join(1)
    if "error" in result:
        raise result["error"]
    return result


def test_a_keypad_script_runs_against_a_device_over_the_serial_port(ledger):
    with NullModem() as cable, SerialTestPort(cable.device_url, CoreTarget(ledger)) as device:
        def client(result):
            with SerialBackend(cable.client_url) as remote:
                result["failure"] = script_run.run(script.parse(SCRIPT), remote)
                result["status"] = remote.status()

        result = run_device(device, client)
    assert result["failure"] is None
    assert result["status"]["game"] == 2 and result["status"]["screen"] == []   # asleep after wait 61


def test_a_failing_expectation_is_reported_by_the_client(ledger):
    text = "enrol Bob B2\ninsert right Bob\npress 2 M\nexpect balance Bob 12M\n"
    with NullModem() as cable, SerialTestPort(cable.device_url, CoreTarget(ledger)) as device:
        def client(result):
            with SerialBackend(cable.client_url) as remote:
                result["failure"] = script_run.run(script.parse(text), remote)

        failure = run_device(device, client)["failure"]
    assert failure.line == 4 and "13M" in failure.actual


def test_a_step_the_device_refuses_raises_on_the_client_and_the_port_carries_on(ledger):
    with NullModem() as cable, SerialTestPort(cable.device_url, CoreTarget(ledger)) as device:
        def client(result):
            with SerialBackend(cable.client_url) as remote:
                with pytest.raises(SerialProtocolError, match="unknown step"):
                    remote.ask("jump left")
                remote.port.write(b"\xfe\xfe garbage\n" + b"z" * 1000 + b"\n")
                result["garbage"] = [json.loads(remote._read_line(time.monotonic() + 5)) for _ in range(2)]
                result["lines"] = remote.screen_lines()

        result = run_device(device, client)
    assert [(a["ok"], a["line"]) for a in result["garbage"]] == [(False, 3), (False, 4)]
    assert "UTF-8" in result["garbage"][0]["error"] and "too long" in result["garbage"][1]["error"]
    assert result["lines"][0] == "Monopoly Bank"


def test_the_live_shell_target_drives_the_unit_and_its_display(ledger):
    clock = ManualClock(10.0)
    chip = OledChip("ssd1306")
    with OledDisplay(interface=chip) as display, NullModem() as cable:
        shell = Shell(ledger, now=clock(), display=display, clock=clock)
        target = shell_target(shell, sleep=clock.advance)
        with SerialTestPort(cable.device_url, target) as device:
            def client(result):
                with SerialBackend(cable.client_url) as remote:
                    remote.enrol("Alice", "A1")
                    remote.insert("left", "Alice")
                    for key in "1.5M":
                        remote.press(key)
                    result["balances"] = remote.balances()
                    remote.hold("C", 3)           # a card on a reader: refused
                    result["screen"] = remote.screen_lines()

            result = run_device(device, client)
        assert result["balances"] == {"Alice": 16_500_000}
        assert result["screen"][0] == "New game?"
        assert chip.image() == render_image(shell.screen)


def test_a_port_that_only_echoes_is_not_taken_for_a_unit():
    with pytest.raises(SerialProtocolError, match="not JSON"):
        SerialBackend("loop://")


def test_a_silent_device_times_out():
    with NullModem() as cable:
        quiet = serial.serial_for_url(cable.device_url, timeout=0.05)
        try:
            with pytest.raises(SerialTimeout):
                SerialBackend(cable.client_url, timeout=0.3)
        finally:
            quiet.close()


def test_stack_on_the_live_unit_through_the_port_shows_two_cards_and_pays_nothing(ledger):
    clock = ManualClock()
    shell = Shell(ledger, clock=clock)
    session = PortSession(shell_target(shell, sleep=clock.advance))
    for line in ("enrol Alice A1", "enrol Bob B2", "insert left Alice"):
        assert ask(session, line)["ok"]
    assert ask(session, "stack left Bob")["screen"][0] == "Two cards on +"
    ask(session, "press 5 M")
    assert ledger.game().balances_by_name() == {"Alice": 15_000_000, "Bob": 15_000_000}
    ask(session, "remove left")
    assert shell.panel.faults == ()
    ask(session, "insert left Alice")
    ask(session, "press C 5 M")
    assert ledger.game().balances_by_name()["Alice"] == 20_000_000
    assert ask(session, "stack left Alice") == {"ok": False, "line": 9,
                                                "error": "line 9: card A1 already lies on the left reader: "
                                                         "a card can't be stacked on itself"}


# -- the banker's PIN on the port -----------------------------------------------------------------

def with_pin(ledger, pin="2468"):
    from banker.fold.authority import hash_pin
    from banker.journal.records import PinChange

    ledger.commit(PinChange(hash_pin(pin, b"0123456789abcdef")))


def test_the_pin_field_is_the_last_word_of_an_admin_line_and_is_starred_out_in_logs():
    from drivers.serial_port import redact, split_pin

    assert split_pin("enrol Eve E5 pin=2468") == ("enrol Eve E5", "2468")
    assert split_pin("ENROL-DEED boardwalk PIN=2468 # tag it") == ("ENROL-DEED boardwalk", "2468")
    assert split_pin("enrol Eve") == ("enrol Eve", None)
    assert redact("enrol\tEve pin=2468") == "enrol\tEve pin=****"


@pytest.mark.parametrize("line", ["press 5 pin=2468", "enrol pin=2468 Eve", "enrol Eve pin=2468 pin=2468",
                                  "pin=2468", "balance? Eve pin=2468", "pin=2468 enrol Eve"])
def test_a_pin_field_out_of_place_is_an_error_that_does_not_quote_it(session, line):
    answer = ask(session, line)
    assert answer["ok"] is False and "last word of an enrol" in answer["error"] and "2468" not in json.dumps(answer)


def test_a_refused_enrolment_on_the_live_unit_says_it_needs_the_pin(ledger):
    from banker.journal.records import PinFailure

    with_pin(ledger)
    clock = ManualClock()
    shell = Shell(ledger, clock=clock)
    session = PortSession(shell_target(shell, sleep=clock.advance))
    assert ask(session, "enrol Eve E5")["needs_pin"] and ask(session, "enrol-deed boardwalk B0 pin=0000")["needs_pin"]
    assert ask(session, "enrol Eve E5 pin=2468")["ok"] and ask(session, "enrol-deed boardwalk B0 pin=2468")["ok"]
    assert ledger.game().card_by_name("Eve") is not None and ledger.game().deed_tags == {"B0": "boardwalk"}
    assert [r.via for r in ledger.store.records() if isinstance(r, PinFailure)] == ["serial"]
    assert ask(session, "enrol-deed nowhere B1 pin=0000")["error"] == "No deed 'nowhere'"
    assert len([r for r in ledger.store.records() if isinstance(r, PinFailure)]) == 1  # an unknown deed tries no PIN


def test_a_target_that_fails_is_logged_without_the_pin(ledger, caplog):
    class Broken(CoreTarget):
        def enrol(self, name, uid, pin=None):
            raise RuntimeError("the target broke")

    session = PortSession(Broken(ledger))
    with caplog.at_level("ERROR", logger="banker.serial"):
        answer = ask(session, "enrol Eve E5 pin=2468")
    assert "internal error" in answer["error"]
    assert "pin=****" in caplog.text and "2468" not in caplog.text


def test_the_client_sends_its_pin_only_with_admin_lines_and_a_text_no_keypad_types_as_a_wrong_one(ledger):
    from banker.fold.authority import NotAuthorised

    with_pin(ledger)
    sent: list[bytes] = []
    with NullModem() as cable, SerialTestPort(cable.device_url, CoreTarget(ledger)) as device:
        def client(result):
            with SerialBackend(cable.client_url, pin="12 34") as remote:
                write = remote.port.write
                remote.port.write = lambda data: (sent.append(data), write(data))[1]
                remote.press("C")
                with pytest.raises(NotAuthorised, match="wrong banker PIN") as refused:
                    remote.enrol("Eve", "E5")
                result["message"] = str(refused.value)

        result = run_device(device, client)
    assert sent == [b"press C\n", b"enrol Eve E5 pin=-\n"]
    assert "12 34" not in result["message"] and ledger.game().card_by_name("Eve") is None
