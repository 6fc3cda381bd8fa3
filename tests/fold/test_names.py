"""Names that look alike are refused (Unicode TR39 skeletons), and the core's table is Unicode's data."""

from __future__ import annotations

import pytest

from banker.text.confusables_data import PROTOTYPES, VERSION
from banker.errors import Refused
from banker.fold.names import look_alike, skeleton
from tests.fixtures.make_confusables import module, prototypes, source_text


def test_the_table_is_unicodes_confusables_for_its_scripts():
    version, table = prototypes(source_text())
    assert (VERSION, PROTOTYPES) == (version, table)


def test_the_generated_module_is_the_one_in_the_core():
    from pathlib import Path

    import banker.text.confusables_data as data

    assert Path(data.__file__).read_text(encoding="utf-8") == module(*prototypes(source_text()))


@pytest.mark.parametrize("name, other", [
    ("\u0410lice", "Alice"),       # Cyrillic capital A
    ("b\u0430nk", "bank"),         # Cyrillic small a
    ("B0b", "Bob"),                # digit zero
    ("Al", "A1"),                  # digit one
    ("\u0392ob", "Bob"),            # Greek capital Beta
    ("Ａlice", "Alice"),            # fullwidth: NFKC already
    ("Bоb", "bob"),                 # Cyrillic o, and case
])
def test_look_alikes(name, other):
    assert look_alike(name, other)


@pytest.mark.parametrize("name, other", [("Alice", "Alec"), ("Player 1", "Player 2"), ("Zoë", "Zoe"),
                                         ("Иван", "Ivan"), ("Bob", "Rob")])
def test_names_that_read_differently(name, other):
    assert not look_alike(name, other)


def test_a_skeleton_keeps_scripts_outside_the_table():
    assert skeleton("太郎") == "太郎"


def test_a_look_alike_of_a_player_or_the_bank_is_refused_at_enrolment_and_rename(table):
    from banker.fold.acts import enrolment, rename

    ledger = table.ledger
    with pytest.raises(Refused, match="\u0410lice looks like Alice"):
        ledger.commit(enrolment(ledger.game(), "\u0410lice", "C3"))
    with pytest.raises(Refused, match="looks like the bank"):
        ledger.commit(enrolment(ledger.game(), "b\u0430nk", "C3"))
    with pytest.raises(Refused, match="looks like Alice"):
        ledger.commit(rename(ledger.game(), "Bob", "A1ice"))
    ledger.commit(rename(ledger.game(), "Alice", "ALICE"))  # a card may take a name like its own
    assert [c.name for c in ledger.game().cards] == ["ALICE", "Bob"]


@pytest.mark.parametrize("hidden", ["\u034fbank", "Bob\U000e0100", "Bo\ufe0fb", "B\u115fob", "b\u3164ank", "ban\u17b5k"])
def test_characters_that_show_nothing_dont_make_a_name_new(hidden, ledger):
    """Found by review: joiners, fillers and variation selectors read as nothing (UTS #39 drops them)."""
    from banker.errors import Refused

    ledger.enrol("Bob", "B2")
    with pytest.raises(Refused, match="looks like"):
        ledger.enrol(hidden, "C3")
