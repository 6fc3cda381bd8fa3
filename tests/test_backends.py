"""One string picks the backend: the same script gives the same game on each; a spy sees what passes."""

import io
from pathlib import Path

import pytest

from banker import script as scripts
from banker.errors import ConfigError
from firmware_sim.memory_store import MemoryStore
from runtime.backends import parse, script_backend
from runtime.ledger import Ledger

EXAMPLE = Path(__file__).parent.parent / "examples" / "first-game.kps"


def play(spec):
    ledger = Ledger(MemoryStore())
    backend = script_backend(spec, ledger)
    try:
        failure = scripts.run(scripts.parse(EXAMPLE.read_text()), backend)
        return failure, ledger.balances(), backend.screen_lines()
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
    scripts.run(scripts.parse(EXAMPLE.read_text()), backend)
    log = out.getvalue()
    assert "spy event  CardPlaced" in log and "spy record Transaction" in log and "spy effect PlayTone" in log
    assert ledger.balances() == play("core")[1]


@pytest.mark.parametrize("spec", ["nope", "spy:", "pi-zero"])
def test_an_unknown_backend_is_named(spec):
    with pytest.raises(ConfigError, match="no backend"):
        parse(spec)


def test_serial_takes_its_url_in_the_string():
    assert parse("serial:loop://") == ("serial", "loop://", False)
    assert parse("spy:hw-sim") == ("hw-sim", None, True)
