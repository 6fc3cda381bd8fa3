"""The unit's spoken texts (banker.unit.voice): what it says after each event, as a player at the table hears it."""

from __future__ import annotations

from dataclasses import replace

import gettext

import pytest

from banker.unit.events import PlayTone, Say
from banker.unit.voice import balances_said, spoken_amount, spoken_text
from tests.conftest import Table


@pytest.fixture
def table(ledger) -> Table:
    t = Table(ledger)
    t.shell.panel = replace(t.shell.panel, speaks=True)  # a unit with its [voice] on
    for name, uid in (("Alice", "A1"), ("Bob", "B2"), ("Cleo", "C3")):
        t.enrol(name, uid)
    return t


def test_a_unit_without_a_voice_builds_nothing_to_say_and_fn_fn_is_no_function(ledger):
    quiet = Table(ledger)
    quiet.enrol("Alice", "A1")
    quiet.insert("left", "Alice")
    quiet.type("2M")
    quiet.type("FN FN")
    assert not [e for e in quiet.effects if isinstance(e, Say)] and "no function" in quiet.shown


def said(table: Table) -> list[str]:
    """What the unit said since the last call."""
    texts = [e.text for e in table.effects if isinstance(e, Say)]
    table.effects.clear()
    return texts


@pytest.mark.parametrize(("amount", "words"), [
    (2_000_000, "2 million"), (890_000, "890 thousand"), (1_500_000, "1.5 million"), (2_250_000, "2.25 million"),
    (15_000_000, "15 million"), (14_151_000, "14 million 151 thousand"), (1_050_000, "1 million 50 thousand"),
    (5_500, "5 thousand 500"), (500, "500"), (0, "0"), (-500_000, "minus 500 thousand"),
])
def test_amounts_are_spoken_as_words_exactly(amount, words):
    assert spoken_amount(amount) == words


def test_a_screens_notation_is_made_speakable():
    assert spoken_text("Bob short 890K") == "Bob short 890 thousand"
    assert spoken_text("Balance 1.5M") == "Balance 1.5 million"
    assert spoken_text("GO pays the card on the + reader") == "GO pays the card on the plus reader"
    assert spoken_text("Board square 01-39") == "Board square 01-39"


def test_each_payment_says_who_paid_whom_and_the_balances_after(table):
    table.insert("right", "Alice")
    table.insert("left", "Bob")
    table.type("2M")
    assert said(table) == ["Alice pays Bob 2 million. Alice has 13 million. Bob has 17 million."]
    table.remove("left")
    table.type("1.5M")
    assert said(table) == ["Alice pays the bank 1.5 million. Alice has 11.5 million."]
    table.remove("right")
    table.insert("left", "Cleo")
    table.type("890K")
    assert said(table) == ["The bank pays Cleo 890 thousand. Cleo has 15.89 million."]


def test_passing_go_rent_and_a_deed_bought(table):
    table.insert("left", "Alice")
    table.press("GO")
    assert said(table) == ["Alice passes GO and collects 2 million. Alice has 17 million."]
    table.remove("left")
    table.type("FN 3 9")
    table.insert("right", "Bob")
    table.press("M")
    assert said(table) == ["Bob buys Boardwalk for 4 million. Bob has 11 million."]
    table.remove("right")
    table.type("FN 3 9")
    table.insert("right", "Alice")
    table.press("GO")
    assert said(table) == ["Alice pays Bob 500 thousand rent. Alice has 16.5 million. Bob has 11.5 million."]


def test_a_shortfall_says_how_much_is_missing(table):
    table.insert("right", "Bob")
    table.type("16M")
    assert said(table) == ["Bob is 1 million short. Bob has 15 million. Zero raises cash."]


def test_any_other_refusal_reads_its_screen_out(table):
    table.type("2M")
    assert said(table) == ["Refused. Insert a card first."]
    table.press("C")
    table.insert("right", "Bob")
    table.press("GO")
    assert said(table) == ["Refused. GO pays the card on the plus reader."]


def test_a_new_game_and_the_volume(table):
    table.hold("C", 2.5)
    assert said(table) == ["New game. 3 players, 15 million each."]
    table.press(".")
    assert said(table) == ["Volume high."]
    table.press(".")
    assert table.effects[-1] == Say("Volume off.", 0)  # said at volume 0: the voice stays silent


def test_an_auction_says_its_bids_its_calls_and_the_sale(table):
    table.type("FN 3 7")
    table.press("GO")
    assert said(table) == ["Auction of Park Place, 10 seconds."]
    table.insert("right", "Cleo")
    table.type("1.5M")
    table.remove("right")
    assert said(table) == ["Cleo bids 1.5 million."]
    table.wait(12)
    assert said(table) == ["Going once.", "Going twice.",
                           "Sold to Cleo for 1.5 million, Park Place. Cleo has 13.5 million."]


def test_the_calls_come_with_their_tones(table):
    table.type("FN 3 7")
    table.press("GO")
    table.insert("right", "Cleo")
    table.press("GO")
    table.remove("right")
    table.effects.clear()
    table.wait(12)
    calls = [(e.tone if isinstance(e, PlayTone) else e.text) for e in table.effects
             if isinstance(e, Say) or getattr(e, "tone", "") in ("going-once", "going-twice")]
    assert calls[:4] == ["going-once", "Going once.", "going-twice", "Going twice."]


def test_an_auction_without_a_bid_or_cancelled_sells_nothing(table):
    table.type("FN 3 7")
    table.press("GO")
    table.press("C")
    assert said(table)[-1] == "Auction cancelled. Nothing sold."
    table.type("FN 3 7")
    table.press("GO")
    table.wait(12)
    assert said(table)[-1] == "No bid for Park Place. Nothing sold."


def test_fn_fn_reads_out_the_balance_of_the_card_on_a_reader_and_changes_nothing(table, ledger):
    before = ledger.game().balances
    table.insert("right", "Bob")
    table.effects.clear()
    table.type("FN")
    table.type("FN")
    assert said(table) == ["Bob has 15 million."]
    assert "FN" not in table.shown and ledger.game().balances == before
    table.insert("left", "Alice")
    table.type("FN")
    table.type("FN")
    assert said(table) == ["Bob has 15 million. Alice has 15 million."]
    table.remove("left")
    table.remove("right")
    table.type("FN")
    table.type("FN")
    assert said(table) == ["No card on a reader."]
    assert balances_said(table.shell.panel, ledger.game()) == "No card on a reader."


def test_an_idle_tick_says_nothing(table):
    table.wait(5)
    assert said(table) == []


class Shouty(gettext.NullTranslations):
    """A catalog for the test: every spoken text upper-cased (its fields kept), the decimal separator a comma."""

    def pgettext(self, context, message):
        return "," if context == "voice decimal separator" else _upper(message)

    def npgettext(self, context, msgid1, msgid2, n):
        return _upper(msgid1 if n == 1 else msgid2)


def _upper(text: str) -> str:
    import re

    return re.sub(r"(?<!\{)\b([a-z]+)\b(?![}])", lambda m: m.group(1).upper(), text)


def test_every_text_goes_through_the_translation_hook():
    from banker.unit.voice import record_said

    tr = Shouty()
    assert spoken_amount(2_500_000, tr) == "2,5 MILLION"
    assert spoken_amount(890_000, tr) == "890 THOUSAND"
    assert spoken_text("Bob short 1.5M", tr) == "Bob short 1,5 MILLION"
    assert record_said(object(), None, tr) == ""


def test_a_screen_read_out_names_deeds_in_full_and_its_readers_in_words():
    from banker.unit.spoken import in_full, sentences
    from cards import load_edition

    us = load_edition("us")
    assert in_full("Rent Connect. Av", us) == "Rent Connecticut Avenue"  # espeak-ng read "Av." as "Af"
    assert in_full("Medit. Ave, Tennessee", us) == "Mediterranean Avenue, Tennessee Avenue"
    assert in_full("Tennessee Avenue", us) == "Tennessee Avenue"  # a full name stays as it is
    assert spoken_text("owner on +, buyer on -") == "owner on plus, buyer on minus"
    assert sentences("GO pays the rent;", "Buy: owner card") == "GO pays the rent. Buy: owner card."


def test_a_german_refusal_is_read_in_german_from_its_screen(table):
    table.type("FN 8 2")
    table.type("FN 0 9")
    table.insert("right", "Alice")
    table.press("M")
    table.remove("right")
    said(table)
    table.type("FN 0 9")
    table.insert("right", "Bob")
    table.press("M")
    (text,) = said(table)
    assert text.startswith("Abgelehnt.") and "+" not in text and ";." not in text


def test_a_house_auctions_lot_is_said_in_the_games_language():
    from banker.unit import voice
    from banker.text.i18n import _
    from banker.unit.panel import Panel
    from runtime.languages import translations_for

    live = {"state": "open", "lot": _("A house ({deed})", deed="Tennessee Avenue"), "slug": "x", "seconds": 10}
    text = voice._live_said(Panel(), live, translations_for("de"))
    assert text.startswith("Auktion: ") and "A house" not in text and "Tennessee Avenue" in text
