"""One string picks the backend: the same script gives the same game on each; a spy sees what passes."""

import io
from pathlib import Path

import pytest

from banker.script import syntax as scripts

from banker.script import run as script_run
from banker.errors import ConfigError
from firmware_sim.memory_store import MemoryStore
from banker_cli.backends import parse, script_backend
from runtime.ledger import Ledger

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "first-game.kps"


def play(spec):
    ledger = Ledger(MemoryStore())
    backend = script_backend(spec, ledger)
    try:
        failure = script_run.run(scripts.parse(EXAMPLE.read_text()), backend)
        return failure, ledger.game().balances_by_name(), backend.screen_lines()
    finally:
        getattr(backend, "close", lambda: None)()


def test_the_core_hw_sim_and_window_backends_agree_on_a_game():
    core = play("core")
    assert core[0] is None
    assert play("hw-sim") == core
    assert play("window") == core


def test_a_spy_logs_events_records_and_effects_without_changing_the_game():
    out = io.StringIO()
    ledger = Ledger(MemoryStore())
    backend = script_backend("spy:core", ledger, spy_stream=out)
    script_run.run(scripts.parse(EXAMPLE.read_text()), backend)
    log = out.getvalue()
    assert "spy event  CardPlaced" in log and "spy record Transaction" in log and "spy effect PlayTone" in log
    assert ledger.game().balances_by_name() == play("core")[1]


@pytest.mark.parametrize("spec", ["nope", "spy:", "pi-zero"])
def test_an_unknown_backend_is_named(spec):
    with pytest.raises(ConfigError, match="no backend"):
        parse(spec)


def test_serial_takes_its_url_in_the_string():
    assert parse("serial:loop://") == ("serial", "loop://", False)
    assert parse("spy:hw-sim") == ("hw-sim", None, True)


@pytest.mark.parametrize("spec", ["core", "hw-sim", "window", "spy:core"])
def test_every_script_backend_takes_the_banker_pin_for_its_enrolments(spec):
    from banker.fold.authority import hash_pin
    from banker.journal.records import PinChange, PinFailure

    text = "enrol Eve E5\nenrol-deed boardwalk B0A4D0\n"
    ledger = Ledger(MemoryStore())
    ledger.commit(PinChange(hash_pin("2468", b"0123456789abcdef")))
    for pin, says in ((None, "line 1: this needs the banker's PIN"), ("1111", "line 1: wrong banker PIN")):
        backend = script_backend(spec, ledger, pin=pin, spy_stream=io.StringIO())
        try:
            with pytest.raises(script_run.StepNotAuthorised, match=says):
                script_run.run(scripts.parse(text), backend)
        finally:
            getattr(backend, "close", lambda: None)()
    backend = script_backend(spec, ledger, pin="2468", spy_stream=io.StringIO())
    try:
        assert script_run.run(scripts.parse(text), backend) is None
    finally:
        getattr(backend, "close", lambda: None)()
    assert ledger.game().card_by_name("Eve") is not None and ledger.game().deed_tags == {"B0A4D0": "boardwalk"}
    assert [r.via for r in ledger.store.records() if isinstance(r, PinFailure)] == ["script"]


def test_the_serial_backend_sends_the_pin_to_the_unit():
    import threading
    import time

    from banker.fold.authority import hash_pin
    from banker.journal.records import PinChange
    from drivers.serial_port import SerialTestPort
    from firmware_sim.serial_backend import CoreTarget, NullModem

    unit = Ledger(MemoryStore())
    unit.commit(PinChange(hash_pin("2468", b"0123456789abcdef")))
    done = threading.Event()
    with NullModem() as cable, SerialTestPort(cable.device_url, CoreTarget(unit)) as device:
        def client():
            try:
                remote = script_backend(f"serial:{cable.client_url}", None, pin="2468")
                with remote:
                    script_run.run(scripts.parse("enrol Eve E5\n"), remote)
            finally:
                done.set()

        worker = threading.Thread(target=client)
        worker.start()
        deadline = time.monotonic() + 30
        while not done.is_set() and time.monotonic() < deadline:
            device.poll()
            time.sleep(0.0005)
        worker.join(1)
    assert unit.game().card_by_name("Eve") is not None
