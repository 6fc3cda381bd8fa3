"""What the voice says for every kind of transaction, in every language: the catalogs' sentences in the game's
language, never the journalled memo (English, with the screen's short deed names), deeds named in full."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from banker.fold import acts
from banker.unit.events import Say
from banker.text.i18n import LANGUAGES
from banker.journal.records import Transaction
from banker.rules.bankruptcy import bankrupt
from banker.rules.buildings import build, sell_building, sell_down
from banker.rules.jackpot import pay_pot, take_pot
from banker.rules.mortgages import lift_mortgage, mortgage
from banker.rules.purchase import buy
from banker.rules.rent import rent
from banker.rules.taxes import income_tax, jail_fine, luxury_tax, pass_go
from banker.rules.trades import Offer, draw_jail_card, trade, use_jail_card
from banker.fold.undo import undo_last
from banker.unit.voice import record_said
from firmware_sim.memory_store import MemoryStore
from runtime.languages import translations_for
from runtime.ledger import Ledger
from tests.conftest import Table

LIGHT_BLUE = ("oriental-avenue", "vermont-avenue", "connecticut-avenue")
#: Words of the journal's English memos ("Jail fine", "Income Tax", "House on Connect. Av", "Alice bankrupt to
#: Bob", "Got jail card", ...) that no German, French, Spanish or Dutch sentence has (the board's own words
#: shared with English, Hotel, Parking and the Dutch pot, are left out).
MEMO_WORDS = re.compile(r"\b(jail|fine|tax|income|luxury|house|houses|mortgaged|lifted|bought|rent|traded|trade|"
                        r"bankrupt|passed|paid|undo|sold|got|used|card|cards|off|seeded|starts|free|into|deal)\b", re.I)


def _spoken(ledger: Ledger, rule, **details) -> tuple[Transaction, object]:
    tx = ledger.post(rule(ledger.game(), **details).to_transaction())
    return tx, ledger.game()


@pytest.fixture(scope="module")
def events(_keys_apart) -> list[tuple[Transaction, object]]:
    """One game with a transaction of every kind the keypad commits, each with the game it led to."""
    with Ledger(MemoryStore()) as ledger:
        alice, bob, cleo = (ledger.enrol(name, uid).id for name, uid in (("Alice", "A1"), ("Bob", "B2"), ("Cleo", "C3")))
        told = [_spoken(ledger, pass_go, player=alice)]
        told += [_spoken(ledger, buy, buyer=alice, slug=slug) for slug in LIGHT_BLUE]
        told.append(_spoken(ledger, buy, buyer=bob, slug="boardwalk", price=3_000_000))  # an auction's sale
        for _ in range(4):
            told += [_spoken(ledger, build, player=alice, slug=slug) for slug in LIGHT_BLUE]
        told.append(_spoken(ledger, build, player=alice, slug="connecticut-avenue"))  # the hotel
        told.append(_spoken(ledger, rent, payer=bob, slug="connecticut-avenue"))
        told.append(_spoken(ledger, sell_building, player=alice, slug="connecticut-avenue"))  # the hotel
        told.append(_spoken(ledger, sell_building, player=alice, slug="connecticut-avenue"))  # a house
        told.append(_spoken(ledger, sell_down, player=alice, group="light-blue"))
        told.append(_spoken(ledger, mortgage, player=alice, slug="connecticut-avenue"))
        told.append(_spoken(ledger, lift_mortgage, player=alice, slug="connecticut-avenue"))
        told.append(_spoken(ledger, mortgage, player=alice, slug="oriental-avenue"))
        told += [_spoken(ledger, rule, player=bob) for rule in (income_tax, luxury_tax, jail_fine, draw_jail_card)]
        told.append(_spoken(ledger, trade, first=alice, second=bob, first_gives=Offer(deeds=("oriental-avenue",)),
                            second_gives=Offer(jail_cards=1, cash=1_000_000)))
        told.append(_spoken(ledger, draw_jail_card, player=cleo))
        told.append(_spoken(ledger, use_jail_card, player=cleo))
        told.append(_spoken(ledger, bankrupt, debtor=cleo, creditor=bob))
        tx = ledger.post(undo_last(ledger.game()))
        told.append((tx, ledger.game()))
        told.append(_spoken(ledger, bankrupt, debtor=cleo, creditor=None))
        ledger.commit(acts.new_game(ledger.game(), replace(ledger.game().settings, jackpot=1_000_000)))
        told += [_spoken(ledger, luxury_tax, player=alice), _spoken(ledger, pay_pot, player=bob, amount=500_000),
                 _spoken(ledger, take_pot, player=bob)]
        return told


def test_the_game_holds_a_transaction_of_every_kind(events):
    assert {tx.kind for tx, _ in events} >= {
        "go", "buy", "auction", "build", "rent", "sell-building", "mortgage", "lift-mortgage", "income-tax",
        "luxury-tax", "jail-fine", "jail-card", "trade", "bankruptcy", "undo", "to-pot", "pot"}


def test_in_english_each_kind_has_its_own_sentence(events):
    said = [record_said(tx, after) for tx, after in events]
    for expected in (
        "Alice passes GO and collects 2 million. Alice has 17 million.",
        "Alice buys Connecticut Avenue for 1.2 million. Alice has 13.8 million.",
        "Sold to Bob for 3 million, Boardwalk. Bob has 12 million.",
        "Alice builds a house on Oriental Avenue for 500 thousand.",
        "Alice builds a hotel on Connecticut Avenue for 500 thousand.",
        "Bob pays Alice 6 million rent.",
        "Alice sells the hotel on Connecticut Avenue for 250 thousand.",
        "Alice sells a house on Connecticut Avenue for 250 thousand.",
        "Alice sells the buildings on Oriental Avenue, Vermont Avenue and Connecticut Avenue for 2.75 million.",
        "Alice mortgages Connecticut Avenue and receives 600 thousand.",
        "Alice pays off the mortgage on Connecticut Avenue, 660 thousand.",
        "Bob pays 2 million income tax.", "Bob pays 1 million luxury tax.", "Bob pays 500 thousand to get out of jail.",
        "Bob keeps a Get Out of Jail Free card.", "Cleo uses a Get Out of Jail Free card.",
        "Alice and Bob trade. Alice gives Oriental Avenue. Bob gives a Get Out of Jail Free card and 1 million. "
        "Bob pays the bank 50 thousand for the mortgages.",
        "Cleo goes bankrupt to Bob and leaves the game. Bob has",
        "Cleo goes bankrupt to the bank and leaves the game.",
        "Alice pays 1 million luxury tax. The Free Parking pot has 2 million.",
        "Bob pays 500 thousand to Free Parking.",
        "Bob takes the Free Parking pot, 2.5 million.",
    ):
        assert any(expected in text for text in said), expected
    assert any(re.fullmatch(r"Transaction \d+ undone\. Bob has [\w. ]+\. Cleo has 15 million\.", text) for text in said)


def test_a_bankrupt_players_balance_is_not_said(events):
    (text,) = [record_said(tx, after) for tx, after in events if tx.kind == "bankruptcy" and
               "to the bank" in record_said(tx, after)]
    assert text == "Cleo goes bankrupt to the bank and leaves the game."


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_sentence_is_the_memo_nor_names_a_deed_by_its_short_name(events, code):
    tr = translations_for(code)
    edition = events[0][1].edition
    dotted = [d.short for d in edition.deeds if "." in d.short]  # "Medit. Ave", "Connect. Av"
    for tx, after in events:
        text = record_said(tx, after, tr)
        # "House on Oriental Av" (in English, "income tax" may say what the memo "Income Tax" does)
        memo = re.compile(rf"(?<!\w){re.escape(str(tx.memo))}(?!\w)", 0 if code == "en" else re.I)
        assert text and not memo.search(text), (tx.kind, text)
        assert not [short for short in dotted if short in text], (tx.kind, text)
        shorts = [d.short for d in edition.deeds if d.short != d.name and d.short in text.replace(d.name, "")]
        assert shorts == [], (tx.kind, text)


@pytest.mark.parametrize("code", [code for code in LANGUAGES if code != "en"])
def test_no_sentence_holds_an_english_memo_word(events, code):
    tr = translations_for(code)
    english = []
    for tx, after in events:
        text = record_said(tx, after, tr)
        names = "|".join(re.escape(d.name) for d in after.edition.deeds)
        words = MEMO_WORDS.findall(re.sub(names, "", text)) + re.findall(r"\bGO\b", text)
        if words:
            english.append((tx.kind, text, words))
    assert english == []


def test_the_german_voice_says_the_boards_words(events):
    said = [record_said(tx, after, translations_for("de")) for tx, after in events]
    assert "Alice geht über Los und zieht 2 Millionen ein. Alice hat 17 Millionen." in said
    assert any(text.startswith("Alice baut ein Haus auf Oriental Avenue für 500 tausend.") for text in said)
    assert any(text.startswith("Bob zahlt 500 tausend, um aus dem Gefängnis zu kommen.") for text in said)
    assert any(text.startswith("Alice nimmt eine Hypothek auf Connecticut Avenue auf und erhält 600 tausend.")
               for text in said)


@pytest.fixture
def table(ledger) -> Table:
    t = Table(ledger)
    t.shell.panel = replace(t.shell.panel, speaks=True)  # a unit with its [voice] on
    for name, uid in (("Alice", "A1"), ("Bob", "B2")):
        t.enrol(name, uid)
    return t


@pytest.mark.parametrize(("code", "fine"), [
    ("de", "Alice zahlt 500 tausend, um aus dem Gefängnis zu kommen. Alice hat 14,5 Millionen."),
    ("fr", "Alice paie 500 mille pour sortir de prison. Alice a 14,5 millions."),
    ("es", "Alice paga 500 mil para salir de la cárcel. Alice tiene 14,5 millones."),
    ("nl", "Alice betaalt 500 duizend om uit de gevangenis te komen. Alice heeft 14,5 miljoen."),
])
def test_the_jail_fine_on_the_keypad_is_said_in_the_games_language(table, code, fine):
    table.type(f"FN 8 {LANGUAGES.index(code) + 1}")
    table.insert("right", "Alice")
    table.type("FN GO 3")
    assert [e.text for e in table.effects if isinstance(e, Say)][-1] == fine
