"""Every journal row on the table page says who paid whom: the sentence :func:`web.journal.says` writes."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import pytest

from banker.journal.records import BANK, Posting, Transaction
from banker.rules.bankruptcy import bankrupt
from banker.rules.buildings import build, sell_building, sell_down
from banker.rules.purchase import buy
from banker.rules.trades import Offer, draw_jail_card, trade
from runtime.ledger import SqliteLedger
from web.demo import play_demo
from web.journal import says


def said(game, tx) -> str:
    return "".join(says(game, tx))


@pytest.fixture
def demo():
    with SqliteLedger(":memory:") as ledger:
        play_demo(ledger)
        yield ledger


def sentences(ledger) -> dict[int, str]:
    game = ledger.game()
    return {tx.id: said(game, tx) for tx in ledger.transactions()}


def test_every_row_of_the_demo_names_who_paid_whom(demo):
    rows = sentences(demo)
    assert rows[1] == "The bank paid Alice 15M to start"
    assert rows[5] == "Alice bought Boardwalk from the bank for 4M"
    assert rows[7] == "Alice built a house on Boardwalk for 2M"
    assert rows[15] == "The bank paid Cleo 750K for mortgaging Electric Company"
    assert rows[16] == "Dan paid Alice rent 2M (Boardwalk)"
    assert rows[17] == "The bank paid Dan 2M for passing GO"
    assert rows[18] == "Bob paid Cleo 500K"
    assert rows[19] == "Dan paid the bank 1M"
    assert rows[20] == "Undid #19 (Dan paid bank): the bank paid Dan 1M"
    assert rows[21] == "Dan paid Bob rent 120K (Vermont Avenue)"


def test_names_are_segments_of_their_own(demo):
    game = demo.game()
    rent = next(tx for tx in demo.transactions() if tx.id == 16)
    assert says(game, rent) == ["", "Dan", " paid ", "Alice", " rent 2M (Boardwalk)"]  # odd indexes: names


def test_taxes_jail_cards_sales_trades_and_bankruptcy(demo):
    game = demo.game()
    alice, bob, cleo = (game.card_by_name(n).id for n in ("Alice", "Bob", "Cleo"))
    tax = demo.post(Transaction("income-tax", (Posting(cleo, BANK, 2_000_000, "income-tax"),), "Income Tax"))
    assert said(demo.game(), tax) == "Cleo paid the bank Income Tax 2M"
    card = demo.post(draw_jail_card(demo.game(), player=cleo).to_transaction())
    assert said(demo.game(), card) == "Cleo got a jail card"
    sold = demo.post(sell_building(demo.game(), player=alice, slug="boardwalk").to_transaction())
    assert said(demo.game(), sold) == "Alice sold a house on Boardwalk to the bank for 1M"
    for slug in ("boardwalk", "park-place", "boardwalk"):
        demo.post(build(demo.game(), player=alice, slug=slug).to_transaction())
    down = demo.post(sell_down(demo.game(), player=alice, group="dark-blue").to_transaction())
    assert said(demo.game(), down) == "Alice sold the buildings on Park Place and Boardwalk to the bank for 3M"
    swap = demo.post(trade(demo.game(), first=cleo, second=bob, first_gives=Offer(("reading-railroad",), 1),
                           second_gives=Offer(cash=2_500_000)).to_transaction())
    assert said(demo.game(), swap) == "Cleo gave Bob Reading Railroad and a jail card; Bob gave Cleo 2.5M"
    demo.post(buy(demo.game(), buyer=cleo, slug="short-line").to_transaction())
    broke = demo.post(bankrupt(demo.game(), debtor=cleo, creditor=alice).to_transaction())
    assert said(demo.game(), broke).startswith("Cleo went bankrupt to Alice, who got ")
    assert said(demo.game(), broke).endswith(" and 3 deeds")  # B. & O., Electric Company, Short Line


def test_a_kind_it_does_not_know_is_said_from_its_postings(demo):
    game = demo.game()
    odd = Transaction("bonus", (Posting(BANK, game.card_by_name("Bob").id, 100_000, "bonus"),), "Beauty contest",
                      id=99, game=game.id)
    assert said(game, odd) == "The bank paid Bob 100K (Beauty contest)"
    assert said(game, replace(odd, postings=())) == "Beauty contest"


def test_stored_text_is_written_visibly_never_acted_on(demo):
    """A name or memo from an older release that checked less: a bidi override can't reverse the row."""
    game = demo.game()
    bob = game.card_by_name("Bob").id
    hostile = replace(game, names=MappingProxyType({**game.names, bob: "Bo\u202eb<b>\x1b[2J"}))
    tx = Transaction("transfer", (Posting(bob, BANK, 1_000, "transfer"),), "x", id=99, game=game.id)
    assert says(hostile, tx)[1] == "Bo\\u202eb<b>\\x1b[2J"  # the page writes it as text: no tag, no reordering
    memo = replace(tx, kind="bonus", memo="\u202eevil")
    assert said(hostile, memo).endswith("(\\u202eevil)")
