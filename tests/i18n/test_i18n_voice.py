"""The unit's language reaches the voice and the config: what it says is in the game's language, and the config's
``[unit] language`` holds until a game picks one (``FN 8``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from banker.unit.events import Say
from runtime.script_shell import CoreBackend


@pytest.fixture
def table(table):
    """The shared table, on a unit with its [voice] on."""
    table.shell.panel = replace(table.shell.panel, speaks=True)
    return table


def said(table) -> list[Say]:
    return [e for e in table.effects if isinstance(e, Say)]


def test_a_payment_is_said_in_the_games_language(table):
    table.type("FN 8 2")  # Deutsch
    table.insert("left", "Alice")
    table.type("2M")
    (say,) = said(table)[-1:]
    assert say.text == "Die Bank zahlt Alice 2 Millionen. Alice hat 17 Millionen."
    assert say.lang == "de"


def test_fn_fn_reads_the_balance_in_the_games_language(table):
    table.type("FN 8 3")  # Français
    table.insert("right", "Bob")
    table.type("FN FN")
    assert said(table)[-1].text.startswith("Bob a 15 millions")


def test_the_configs_language_holds_until_a_game_picks_one(ledger):
    unit = CoreBackend(ledger)
    unit.shell.language = "es"
    unit.shell.panel = replace(unit.shell.panel, speaks=True)
    unit.enrol("Alice", "A1")
    unit.insert("left", "Alice")
    assert unit.screen_lines()[0].startswith("+ Alice")
    for key in ("1", "M"):
        unit.press(key)
    assert [e for e in unit.effects if isinstance(e, Say)][-1].text.startswith("La banca paga 1 millón a Alice")
    unit.remove("left")
    for key in ("FN", "8", "1"):  # the game picks English: it wins over the config's
        unit.press(key)
    unit.insert("left", "Alice")
    for key in ("1", "M"):
        unit.press(key)
    assert [e for e in unit.effects if isinstance(e, Say)][-1].text.startswith("The bank pays Alice 1 million")
