"""A reply is finished once (issue 31): a refusal the voice reads out is drawn once, and it is the very screen the
display shows; on a unit without a voice nothing is drawn for it in the step."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from banker.unit import shown
from banker.unit.events import KeyDown
from runtime.shell import Shell


class Frames:
    """A display that keeps every screen sent to it."""

    def __init__(self) -> None:
        self.shown = []

    def show(self, screen) -> None:
        self.shown.append(screen)

    def power(self, on: bool) -> None:
        pass


@pytest.fixture
def drawn(monkeypatch) -> list:
    """Every screen drawn, by the step (for the voice) or by the shell (for the display)."""
    screens, screen = [], shown.screen

    def counted(*args):
        screens.append(screen(*args))
        return screens[-1]

    monkeypatch.setattr("banker.unit.step.screen", counted)
    monkeypatch.setattr("runtime.shell.screen_of", counted)
    return screens


def test_a_refusal_is_read_out_from_the_screen_the_display_shows_drawn_once(ledger, drawn):
    frames, heard = Frames(), []
    shell = Shell(ledger, display=frames, voice=SimpleNamespace(say=lambda text, volume, lang: heard.append(text)))
    shell.handle(KeyDown("2", 1.0))
    drawn.clear()
    shell.handle(KeyDown("M", 1.2))  # no card on a reader: refused
    assert heard == ["Refused. Insert a card first."]
    assert len(drawn) == 1 and frames.shown[-1] is drawn[0]
    assert frames.shown[-1].lines[:2] == ("Refused", "Insert a card first")


def test_a_unit_without_a_voice_draws_a_refusal_only_for_the_display(ledger, drawn):
    frames = Frames()
    shell = Shell(ledger, display=frames)
    shell.handle(KeyDown("2", 1.0))
    drawn.clear()
    shell.handle(KeyDown("M", 1.2))
    assert len(drawn) == 1 and frames.shown[-1] is drawn[0] and "Insert a card first" in frames.shown[-1].text


def test_a_new_shortfall_is_said_in_its_own_words_and_its_screen_drawn_by_the_shell(ledger, drawn):
    ledger.enrol("Alice", "A1")
    frames, heard = Frames(), []
    shell = Shell(ledger, display=frames, voice=SimpleNamespace(say=lambda text, volume, lang: heard.append(text)))
    from banker.unit.events import CardPlaced

    shell.handle(CardPlaced("right", "A1", 1.0))
    for key in "16":
        shell.handle(KeyDown(key, 1.1))
    drawn.clear()
    shell.handle(KeyDown("M", 1.2))  # Alice has 15M: 1M short
    assert heard[-1] == "Alice is 1 million short. Alice has 15 million. Zero raises cash."
    assert len(drawn) == 1 and "0: raise cash" in frames.shown[-1].text
