"""Mortgages: the bank lends the mortgage value, lifting costs it plus 10% rounded up to 10K."""

from dataclasses import replace

import pytest

from banker.errors import InsufficientFunds
from banker.journal.records import BANK, HousesChange, MortgageChange, Posting
from tests.rules.table import Table
from banker.rules import apply, interest, lift_cost, lift_mortgage, mortgage

from tests.rules.support import K, M, refused

ALICE, BOB = 1, 2


@pytest.fixture
def table():
    return Table.new(players=(ALICE, BOB)).hand(ALICE, "park-place", "boardwalk", "short-line")


def test_mortgaging_boardwalk_lends_its_2m_mortgage_value(table):
    deal = table.deal(mortgage, player=ALICE, slug="boardwalk")
    assert deal.postings == (Posting(BANK, ALICE, 2 * M, "mortgage"),)
    assert deal.changes == (MortgageChange("boardwalk", False, True),)
    assert deal.summary == "Mortgaged Boardwalk"


def test_a_railroad_can_be_mortgaged_too(table):
    assert table.play(mortgage, player=ALICE, slug="short-line").estate.is_mortgaged("short-line")


def test_a_deed_is_mortgaged_only_once(table):
    table = table.play(mortgage, player=ALICE, slug="boardwalk")
    with refused("Already mortgaged"):
        table.deal(mortgage, player=ALICE, slug="boardwalk")


def test_no_mortgage_while_any_lot_of_the_group_has_buildings(table):
    table = replace(table, estate=apply(table.estate, [HousesChange("park-place", 0, 1)]))
    with refused("Sell buildings first"):
        table.deal(mortgage, player=ALICE, slug="boardwalk")


def test_only_the_owner_mortgages(table):
    with refused("Boardwalk not yours"):
        table.deal(mortgage, player=BOB, slug="boardwalk")


def test_lifting_boardwalks_mortgage_costs_2m_plus_200k_interest(table):
    table = table.play(mortgage, player=ALICE, slug="boardwalk")
    deal = table.deal(lift_mortgage, player=ALICE, slug="boardwalk")
    assert deal.postings == (
        Posting(ALICE, BANK, 2 * M, "lift-mortgage"),
        Posting(ALICE, BANK, 200 * K, "interest"),
    )
    assert not table.after(deal).estate.is_mortgaged("boardwalk")


def test_park_places_175k_interest_rounds_up_to_180k(table):
    park_place = table.edition.deed("park-place")
    assert interest(table.edition, park_place) == 180 * K
    assert lift_cost(table.edition, park_place) == 1_930 * K


def test_every_interest_is_a_multiple_of_10k_and_at_least_10_percent(table):
    for deed in table.edition.deeds:
        due = interest(table.edition, deed)
        assert due % (10 * K) == 0 and 10 * due >= deed.mortgage and 10 * (due - 10 * K) < deed.mortgage


def test_an_unmortgaged_deed_has_nothing_to_lift(table):
    with refused("Not mortgaged"):
        table.play(lift_mortgage, player=ALICE, slug="boardwalk")


def test_lifting_needs_the_money(table):
    table = table.play(mortgage, player=ALICE, slug="boardwalk").with_balance(ALICE, 2 * M)
    with pytest.raises(InsufficientFunds) as refusal:
        table.play(lift_mortgage, player=ALICE, slug="boardwalk")
    assert refusal.value.shortfall == 200 * K


def test_only_the_owner_lifts(table):
    table = table.play(mortgage, player=ALICE, slug="boardwalk")
    with refused("not yours"):
        table.deal(lift_mortgage, player=BOB, slug="boardwalk")
