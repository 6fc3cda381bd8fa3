"""Trades between players (deeds, jail cards, an agreed price) and Get Out of Jail Free cards."""

from dataclasses import replace

import pytest

from banker.errors import AmountError, InsufficientFunds
from banker.journal.records import BANK, HousesChange, OwnerChange, Posting
from tests.rules.table import Table
from banker.rules import Offer, apply, draw_jail_card, mortgage, trade, use_jail_card

from tests.rules.support import K, M, refused

ALICE, BOB, CAROL = 1, 2, 3


@pytest.fixture
def table():
    return Table.new(players=(ALICE, BOB, CAROL)).hand(ALICE, "park-place", "short-line").hand(BOB, "boardwalk")


def test_alice_sells_park_place_to_bob_for_an_agreed_3m(table):
    deal = table.deal(trade, first=ALICE, second=BOB, first_gives=Offer(deeds=("park-place",)), second_gives=Offer(cash=3 * M))
    assert deal.postings == (Posting(BOB, ALICE, 3 * M, "trade"),)
    assert deal.changes == (OwnerChange("park-place", ALICE, BOB),)
    assert deal.summary == "Traded Park Place"
    table = table.after(deal)
    assert table.balance(ALICE) == 18 * M and table.estate.owner("park-place") == BOB


def test_a_straight_swap_moves_no_money(table):
    deal = table.deal(
        trade, first=ALICE, second=BOB,
        first_gives=Offer(deeds=("short-line",)), second_gives=Offer(deeds=("boardwalk",)),
    )
    assert deal.postings == ()
    assert deal.summary == "Traded 2 deeds"


def test_a_jail_card_sells_for_any_agreed_price(table):
    table = table.play(draw_jail_card, player=ALICE)
    table = table.play(trade, first=ALICE, second=CAROL, first_gives=Offer(jail_cards=1), second_gives=Offer(cash=10 * K))
    assert table.estate.jail_cards_of(CAROL) == 1 and table.estate.jail_cards_of(ALICE) == 0


def test_no_deed_of_a_built_group_changes_hands(table):
    table = replace(table, estate=apply(table.estate, [OwnerChange("boardwalk", BOB, ALICE), HousesChange("boardwalk", 0, 1)]))
    with refused("Sell buildings first"):
        table.deal(trade, first=ALICE, second=BOB, first_gives=Offer(deeds=("park-place",)), second_gives=Offer(cash=1))


def test_a_player_trades_only_their_own_deeds(table):
    with refused("Boardwalk not yours"):
        table.deal(trade, first=ALICE, second=CAROL, first_gives=Offer(deeds=("boardwalk",)))


def test_a_player_without_a_jail_card_cannot_sell_one(table):
    with refused("No jail card to give"):
        table.deal(trade, first=ALICE, second=BOB, first_gives=Offer(jail_cards=1), second_gives=Offer(cash=1))


def test_cash_alone_is_not_a_trade_players_never_lend(table):
    with refused("Nothing to trade"):
        table.deal(trade, first=ALICE, second=BOB, first_gives=Offer(cash=1 * M))


def test_nobody_trades_with_themselves(table):
    with refused("Trade with yourself"):
        table.deal(trade, first=ALICE, second=ALICE, first_gives=Offer(deeds=("park-place",)))


def test_a_negative_price_is_an_amount_error(table):
    with refused("Price must be >= 0", AmountError):
        table.deal(trade, first=ALICE, second=BOB, first_gives=Offer(deeds=("park-place",)), second_gives=Offer(cash=-5))


def test_the_buyer_must_have_the_price(table):
    table = table.with_balance(BOB, 1 * M)
    with pytest.raises(InsufficientFunds) as refusal:
        table.play(trade, first=ALICE, second=BOB, first_gives=Offer(deeds=("park-place",)), second_gives=Offer(cash=3 * M))
    assert refusal.value.shortfall == 2 * M


def test_a_mortgaged_deed_costs_its_new_owner_the_10_percent_at_once(table):
    table = table.play(mortgage, player=ALICE, slug="park-place")
    deal = table.deal(trade, first=ALICE, second=BOB, first_gives=Offer(deeds=("park-place",)), second_gives=Offer(cash=1 * M))
    assert Posting(BOB, BANK, 180 * K, "interest") in deal.postings
    assert table.after(deal).estate.is_mortgaged("park-place")


def test_the_new_owner_may_lift_at_once_for_the_principal_only(table):
    table = table.play(mortgage, player=ALICE, slug="park-place")
    table = table.play(
        trade, first=ALICE, second=BOB, first_gives=Offer(deeds=("park-place",)), lift_now=("park-place",)
    )
    assert table.balance(BOB) == 15 * M - 180 * K - 1_750 * K
    assert not table.estate.is_mortgaged("park-place")


def test_only_a_mortgaged_deed_in_the_trade_can_be_lifted_in_it(table):
    with refused("Not mortgaged"):
        table.deal(trade, first=ALICE, second=BOB, first_gives=Offer(deeds=("park-place",)), lift_now=("park-place",))
    table = table.play(mortgage, player=ALICE, slug="short-line")
    with refused("Not in the trade"):
        table.deal(trade, first=ALICE, second=BOB, first_gives=Offer(deeds=("park-place",)), lift_now=("short-line",))


def test_cash_received_in_the_same_trade_pays_the_interest(table):
    table = table.play(mortgage, player=ALICE, slug="park-place").with_balance(BOB, 0)
    table = table.hand(BOB, "water-works")
    deal = table.deal(
        trade, first=ALICE, second=BOB,
        first_gives=Offer(deeds=("park-place",), cash=500 * K), second_gives=Offer(deeds=("water-works",)),
    )
    assert table.after(deal).balance(BOB) == 500 * K - 180 * K


# --- Get Out of Jail Free cards ------------------------------------------------

def test_a_drawn_jail_card_is_kept_until_used(table):
    table = table.play(draw_jail_card, player=ALICE)
    assert table.estate.jail_cards_of(ALICE) == 1
    table = table.play(use_jail_card, player=ALICE)
    assert table.estate.jail_cards_of(ALICE) == 0 and table.estate.jail_cards_of(None) == 2


def test_only_two_jail_cards_can_be_drawn(table):
    table = table.play(draw_jail_card, player=ALICE).play(draw_jail_card, player=BOB)
    with refused("No jail card left"):
        table.deal(draw_jail_card, player=CAROL)


def test_a_player_without_a_jail_card_cannot_use_one(table):
    with refused("No jail card"):
        table.deal(use_jail_card, player=ALICE)
