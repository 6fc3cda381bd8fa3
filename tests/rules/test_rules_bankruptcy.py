"""Bankruptcy to a player (buildings sold at half price, everything to the creditor) and to the bank."""

from dataclasses import replace

import pytest

from banker.errors import InsufficientFunds
from banker.journal.records import BANK, HousesChange, Posting
from tests.rules.table import Table
from banker.rules import HOTEL, apply, bankrupt, draw_jail_card, mortgage

from tests.rules.support import K, M, refused

ALICE, BOB, CAROL = 1, 2, 3


@pytest.fixture
def table():
    """Alice: 300K cash, hotels on the dark blues, Short Line mortgaged, a jail card."""
    table = Table.new(players=(ALICE, BOB, CAROL)).hand(ALICE, "park-place", "boardwalk", "short-line")
    table = table.play(mortgage, player=ALICE, slug="short-line").play(draw_jail_card, player=ALICE)
    estate = apply(table.estate, [HousesChange("park-place", 0, HOTEL), HousesChange("boardwalk", 0, HOTEL)])
    return replace(table, estate=estate).with_balance(ALICE, 300 * K)


def test_owing_a_player_sells_the_buildings_at_half_price_and_hands_over_the_cash(table):
    deal = table.deal(bankrupt, debtor=ALICE, creditor=BOB)
    assert deal.postings[:2] == (
        Posting(BANK, ALICE, 10 * M, "building-sale"),  # two hotels = 10 house prices of 2M, at half
        Posting(ALICE, BOB, 10_300 * K, "bankruptcy"),
    )
    table = table.after(deal)
    assert table.balance(ALICE) == 0
    assert (table.estate.houses_in_bank, table.estate.hotels_in_bank) == (32, 12)


def test_owing_a_player_hands_over_deeds_and_jail_cards(table):
    table = table.play(bankrupt, debtor=ALICE, creditor=BOB)
    assert {table.estate.owner(s) for s in ("park-place", "boardwalk", "short-line")} == {BOB}
    assert table.estate.jail_cards_of(BOB) == 1 and table.estate.jail_cards_of(ALICE) == 0


def test_the_creditor_pays_10_percent_on_each_mortgaged_deed_received(table):
    deal = table.deal(bankrupt, debtor=ALICE, creditor=BOB)
    assert Posting(BOB, BANK, 100 * K, "interest") in deal.postings
    assert table.after(deal).estate.is_mortgaged("short-line")


def test_the_creditor_may_lift_a_received_mortgage_at_once_for_the_principal(table):
    table = table.play(bankrupt, debtor=ALICE, creditor=BOB, lift_now=("short-line",))
    assert not table.estate.is_mortgaged("short-line")
    assert table.balance(BOB) == 15 * M + 10_300 * K - 100 * K - 1 * M


def test_a_creditor_who_cannot_pay_the_interest_must_raise_money_first(table):
    table = table.with_balance(ALICE, 0)
    table = replace(table, estate=apply(table.estate, [HousesChange("park-place", HOTEL, 0), HousesChange("boardwalk", HOTEL, 0)]))
    table = table.with_balance(BOB, 50 * K)
    with pytest.raises(InsufficientFunds) as refusal:
        table.play(bankrupt, debtor=ALICE, creditor=BOB)
    assert refusal.value.shortfall == 50 * K


def test_owing_the_bank_returns_deeds_unsold_and_unmortgaged_for_auction(table):
    table = table.play(bankrupt, debtor=ALICE, creditor=BANK)
    assert all(table.estate.owner(s) is None for s in ("park-place", "boardwalk", "short-line"))
    assert not table.estate.is_mortgaged("short-line")


def test_owing_the_bank_its_buildings_just_return_and_the_cash_goes_too(table):
    deal = table.deal(bankrupt, debtor=ALICE, creditor=BANK)
    assert deal.postings == (Posting(ALICE, BANK, 300 * K, "bankruptcy"),)
    table = table.after(deal)
    assert (table.estate.houses_in_bank, table.estate.hotels_in_bank) == (32, 12)
    assert table.estate.jail_cards_of(None) == 2


def test_a_player_cannot_owe_themselves(table):
    with refused("Cannot owe yourself"):
        table.deal(bankrupt, debtor=ALICE, creditor=ALICE)


def test_the_bank_does_not_lift_mortgages_for_anyone(table):
    with refused("Bank lifts mortgages"):
        table.deal(bankrupt, debtor=ALICE, creditor=BANK, lift_now=("short-line",))


def test_a_bankruptcy_can_be_undone_whole(table):
    deal = table.deal(bankrupt, debtor=ALICE, creditor=BOB)
    assert table.after(deal).undo(deal) == table
