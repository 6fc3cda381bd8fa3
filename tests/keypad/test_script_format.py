"""The keypad-script format and the runner, step by step: what each malformed line says, what each failed expect says."""

from __future__ import annotations

import pytest

from banker.errors import ScriptError
from banker.script import run as script_run
from banker.script import syntax
from banker.script.hands import ReaderCards
from banker.unit.events import CardPlaced, CardRemoved, ReaderFault, ReaderRecovered
from firmware_sim.memory_store import MemoryStore
from runtime.ledger import Ledger
from runtime.script_shell import CoreBackend

#: Every action step of the format, in a script that plays on a fresh game.
EVERY_ACTION = """enrol Alice
enrol "Bob Two" 04A1B2C3
enrol-deed boardwalk
seed fixed
insert left Alice
stack left "Bob Two"
remove left
tap left boardwalk
press 1 . 5 M
hold C 1
wait 2
"""


@pytest.mark.parametrize("line, says", [
    ("insert", "usage: insert left|right NAME"),
    ("stack up Bob", "reader must be left or right, not 'up'"),
    ("tap left", "usage: tap left|right NAME"),
    ("enrol A B C", "usage: enrol NAME [UID]"),
    ("enrol-deed boardwalk zz", "not a card UID (hex): 'zz'"),
    ("enrol-deed", "usage: enrol-deed SLUG [UID]"),
    ("remove up", "reader must be left or right, not 'up'"),
    ("press", "usage: press KEY [KEY ...]"),
    ("hold Q x", "not a number of seconds: 'x'"),  # the seconds are read before the key
    ("hold Q 5", "unknown key 'Q' (keys: 1 2 3 M 4 5 6 K 7 8 9 C . 0 GO FN)"),
    ("wait 1 2", "usage: wait SECONDS"),
    ("seed a b", "usage: seed TEXT"),
    ("dance", "unknown step 'dance'"),
    ("expect pot -5", "not a positive amount: -5"),
    ("expect houses a 6", "not a count 0-5: '6'"),
    ("expect mortgaged a maybe", "mortgaged: yes or no, not 'maybe'"),
    ("expect bank-hotels x", "not a count 0-999: 'x'"),
    ('insert left "Open', 'a quoted name is not closed (")'),
])
def test_each_malformed_line_says_what_is_wrong_with_its_number(line, says):
    with pytest.raises(ScriptError) as refused:
        syntax.parse_line(line, 7)
    assert str(refused.value) == f"line 7: {says}"


def test_a_comment_or_a_blank_line_is_no_step():
    assert syntax.parse_line("   # only a comment", 1) is None
    assert syntax.parse_line("", 2) is None


def test_expect_screen_takes_the_rest_of_its_line_as_it_stands():
    assert syntax.parse_line('expect screen Paid "500K"  # a comment', 1) == syntax.ExpectScreen('Paid "500K"')


@pytest.mark.parametrize("expect, says", [
    ("expect balance Alise 1", "expected balance Alise 1, got no such player (did you mean 'Alice'?)"),
    ("expect screen nothing-like-this", "expected screen showing 'nothing-like-this', got 'Cancelled | Nothing changed'"),
    ("expect owner boardwalk Alice", "expected owner boardwalk Alice, got bank"),
    ("expect houses boardwalk 3", "expected houses boardwalk 3, got 0"),
    ("expect mortgaged boardwalk yes", "expected mortgaged boardwalk yes, got no"),
    ("expect bank-houses 3", "expected bank-houses 3, got 32"),
    ("expect bank-hotels 1", "expected bank-hotels 1, got 12"),
    ("expect pot 5", "expected pot 5, got no pot in this game"),
    ("expect worth Nobody 2", "expected worth Nobody 2, got no such player"),
])
def test_every_action_plays_and_each_failed_expect_says_what_it_found(expect, says):
    failure = script_run.run(syntax.parse(EVERY_ACTION + expect + "\n"), CoreBackend(Ledger(MemoryStore())))
    assert str(failure) == f"line 12: {says}"


def test_an_expect_that_holds_is_no_failure():
    held = "expect owner boardwalk bank\nexpect houses boardwalk 0\nexpect mortgaged boardwalk no\n"
    assert script_run.run(syntax.parse(EVERY_ACTION + held), CoreBackend(Ledger(MemoryStore()))) is None


def test_cards_on_a_reader_make_the_events_its_slot_would_post():
    cards = ReaderCards()
    assert cards.insert("left", "A1", 1.0) == [CardPlaced("left", "A1", 1.0)]
    assert cards.stack("left", "B2", 2.0) == [ReaderFault("left", "two-cards", 2.0)]
    assert cards.insert("left", "C3", 3.0) == [ReaderRecovered("left", 3.0), CardPlaced("left", "C3", 3.0)]
    assert cards.remove("left", 4.0) == [CardRemoved("left", 4.0)]
    assert cards.stack("right", "D4", 5.0) == [CardPlaced("right", "D4", 5.0)]  # on an empty reader: laid down
    with pytest.raises(ScriptError, match="can't be stacked on itself"):
        cards.stack("right", "D4", 6.0)
