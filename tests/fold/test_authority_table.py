"""Authority is data: a new act marked in the core's one table needs the banker's PIN on every path, untouched.

A made-up record kind (a house rule switched on) is registered the way a real
one is (its word, its fold) and marked in :data:`banker.fold.authority.AUTHORITY`.
Nothing else is told about it, yet the write path refuses it without the PIN
(journalling a wrong one), the keypad asks for the PIN before it reaches the
write path, and the shell shows the refusal.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from banker.fold import authority, game
from banker.fold.authority import Grant, PinNeeded, WrongPin, hash_pin
from banker.unit.events import KeyDown
from banker.unit.modes.base import Ctx
from banker.unit.modes.pin import PinEntry
from banker.unit.panel import Panel
from banker.journal.records import KINDS, PinChange, PinFailure
from banker.unit.step import _outcome
from runtime.shell import Shell


@dataclass(frozen=True)
class HouseRule:
    """A house rule switched on (made up for this test)."""

    name: str
    time: float | None = None


@pytest.fixture
def house_rule(monkeypatch):
    monkeypatch.setitem(KINDS, HouseRule, "house-rule")                     # its word (banker/journal/records.py)
    monkeypatch.setitem(game._APPLY, HouseRule, lambda g, record: g)       # its fold (banker/fold/game.py)
    monkeypatch.setitem(authority.AUTHORITY, HouseRule, lambda g, record: "switching a house rule on")
    return HouseRule("free-parking")


@pytest.fixture
def pinned(ledger):
    ledger.commit(PinChange(hash_pin("2468", b"0123456789abcdef")))
    return ledger


def failures(ledger) -> int:
    return sum(isinstance(r, PinFailure) for r in ledger.store.records())


def test_the_write_path_refuses_the_new_act_without_the_pin(pinned, house_rule):
    for grant in (None, Grant(None, "cli"), Grant(None, "script"), Grant(None, "serial")):
        with pytest.raises(PinNeeded):
            pinned.commit(house_rule, grant)
    with pytest.raises(WrongPin):
        pinned.commit(house_rule, Grant("1111", "serial"))
    assert failures(pinned) == 1                       # the wrong one counts, on whichever path it came
    assert not any(isinstance(r, HouseRule) for r in pinned.store.records())
    stored = pinned.commit(house_rule, Grant("2468", "cli"))
    assert list(pinned.store.records())[-1] == stored


def test_with_no_pin_set_the_new_act_needs_none(ledger, house_rule):
    assert authority.needs_authority(ledger.game(), house_rule) == "switching a house rule on"
    assert ledger.commit(house_rule).name == "free-parking"


def test_the_keypad_asks_for_the_pin_before_the_write_path_sees_it(pinned, house_rule):
    panel, now = Panel(), pinned.game()
    reply = Ctx(panel, now).commit(house_rule, lambda after: None)
    outcome = _outcome(panel, now, reply)
    assert outcome.record is None and isinstance(outcome.panel.mode, PinEntry)   # nothing to write yet
    typed = outcome.panel.mode
    for key in "2468":
        typed = typed.key(Ctx(panel, now), key).mode
    handed = _outcome(panel, now, typed.key(Ctx(panel, now, wall=1.0), "M"))
    assert handed.record is not None and handed.grant == Grant("2468", "keypad", 1.0)


def test_the_shell_shows_a_refusal_of_the_write_path(pinned, house_rule, monkeypatch):
    shell = Shell(pinned)
    import banker.unit.step as step_module

    def step(panel, game_now, event, *tr):
        if isinstance(event, KeyDown):                # a flow that hands the act over without a PIN
            return step_module.Outcome(panel, (), house_rule, None)
        return real(panel, game_now, event, *tr)

    real = step_module.step
    monkeypatch.setattr("runtime.shell.step", step)
    shell.handle(KeyDown("M", 1.0))
    assert "Banker PIN needed" in " ".join(shell.screen.lines)
    assert not any(isinstance(r, HouseRule) for r in pinned.store.records())


def test_nothing_but_the_table_names_an_act(house_rule):
    """The table is the one place: no flow, command or backend names an act's record kind to ask for a PIN."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2]
    deciders = [p for p in root.glob("*/**/*.py") if ".venv" not in p.parts and "tests" not in p.parts
                and ("requires_pin(" in p.read_text() or "needs_authority(" in p.read_text())]
    assert sorted(p.relative_to(root).as_posix() for p in deciders) == [
        "banker/fold/authority.py", "banker/unit/step.py", "runtime/ledger.py"]
