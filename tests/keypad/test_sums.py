"""Show the sum (a game setting for children): every payment's arithmetic shown, or its new balance asked first."""

from __future__ import annotations

import pytest

from banker.journal.records import GameSettings
from tests.conftest import Table


def with_sums(table: Table, how: str) -> None:
    table.type("FN GO 1 6" + (" 6" if how == "ask" else "") + " M")
    assert table.ledger.game().settings.sums == how


def test_shown_each_payment_says_its_sum(table):
    with_sums(table, "show")
    table.insert("right", "Alice")
    table.type("4M")
    assert table.screen_lines()[1] == "Alice 15M - 4M = 11M"
    table.insert("left", "Bob")
    table.type("2.5M")
    assert table.screen_lines()[1:] == ["Alice 11M-2.5M=8.5M", "Bob 15M+2.5M=17.5M"]  # tight, to fit a line


def test_rules_payments_show_their_sum_too(table):
    with_sums(table, "show")
    table.insert("right", "Bob")
    table.type("FN 3 9 M")  # Bob buys Boardwalk
    assert "Bob 15M - 4M = 11M" in table.screen_lines()


def test_asked_a_right_answer_pays(table):
    with_sums(table, "ask")
    table.insert("right", "Alice")
    table.type("4M")
    assert table.screen_lines()[1] == "Alice 15M - 4M = ?" and table.balance("Alice") == 15_000_000
    table.type("11")
    assert "15M - 4M = 11_" in table.shown
    table.press("M")
    assert table.screen_lines()[0] == "Right!" and table.balance("Alice") == 11_000_000


def test_asked_a_wrong_answer_is_a_hint_and_the_second_goes_through(table):
    with_sums(table, "ask")
    table.insert("right", "Alice")
    table.type("4M")
    table.type("12M")
    assert "Not quite!" in table.shown and "less" in table.shown and "refusal" not in table.tones()  # a hint, not a buzz
    assert table.balance("Alice") == 15_000_000
    table.type("10M")
    assert table.screen_lines()[0] == "It's 11M" and table.balance("Alice") == 11_000_000


def test_asked_fn_shows_the_answer_and_c_cancels(table):
    with_sums(table, "ask")
    table.insert("left", "Bob")
    table.type("2M")
    table.press("C")
    assert table.balance("Bob") == 15_000_000
    table.type("2M")
    table.press("FN")
    assert table.screen_lines()[0] == "Bob: it's 17M" and table.balance("Bob") == 17_000_000


def test_an_undo_is_not_asked(table):
    with_sums(table, "ask")
    table.insert("left", "Bob")
    table.type("2M")
    table.type("17M")
    table.remove("left")
    table.type("FN C M")
    assert table.balance("Bob") == 15_000_000


@pytest.mark.parametrize("sums", [None, "show", "ask"])
def test_changing_the_sums_is_the_bankers_act(table, sums):
    table.type("FN . 1 2 3 4 M 1 2 3 4 M")
    current = table.ledger.game().settings
    table.type("FN GO 1" + " 6" * {None: 0, "show": 1, "ask": 2}[sums] + " M")
    changed = GameSettings(sums=sums) != current
    assert ("Banker PIN?" in table.shown) == changed
