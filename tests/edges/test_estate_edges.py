"""Rent, buildings and mortgages at their edges: the bank's last hotel, a shortage equal to the stock, a roll of 2."""

from dataclasses import replace

import pytest

from banker.errors import AmountError
from banker.journal.records import BANK, Posting
from banker.rules import HOTEL, build, lift_mortgage, mortgage, rent, rent_due, sell_building, sell_down
from banker.rules.buildings import hotel_shortage, house_shortage
from banker.rules.mortgages import interest, lift_cost
from tests.rules.support import K, M, refused
from tests.rules.table import Table
from tests.rules.test_rules_buildings import with_buildings

ALICE, BOB = 1, 2


@pytest.fixture
def table():
    return Table.new(players=(ALICE, BOB)).hand(ALICE, "park-place", "boardwalk")


def stock(table, houses=None, hotels=None):
    """The table with the bank's stock of houses and hotels set (what a game of another edition could have)."""
    estate = table.estate
    return replace(table, estate=replace(estate, house_stock=estate.house_stock if houses is None else houses,
                                         hotel_stock=estate.hotel_stock if hotels is None else hotels))


# -- buildings ----------------------------------------------------------------------------------

def test_the_bank_s_last_hotel_can_be_built(table):
    table = stock(with_buildings(table, ALICE, park_place=4, boardwalk=4), hotels=1)
    deal = table.deal(build, player=ALICE, slug="boardwalk")
    assert deal.postings == (Posting(ALICE, BANK, 2 * M, "hotel"),) and deal.summary == "Hotel on Boardwalk"
    after = table.after(deal)
    assert (after.estate.hotels_in_bank, after.estate.houses_in_bank) == (0, 32 - 4)
    with refused("Bank has no hotels"):
        after.deal(build, player=ALICE, slug="park-place")


def test_the_bank_s_last_house_can_be_built(table):
    table = stock(table, houses=1)
    after = table.play(build, player=ALICE, slug="boardwalk")
    assert after.estate.houses_in_bank == 0
    with refused("Bank has no houses"):
        after.deal(build, player=ALICE, slug="park-place")


def test_a_hotel_sells_when_the_bank_has_exactly_the_four_houses_it_gives_back(table):
    table = stock(with_buildings(table, ALICE, park_place=HOTEL, boardwalk=HOTEL), houses=4)
    assert table.estate.houses_in_bank == 4
    deal = table.deal(sell_building, player=ALICE, slug="boardwalk")
    assert deal.postings == (Posting(BANK, ALICE, 1 * M, "building-sale"),)
    assert table.after(deal).estate.houses_in_bank == 0
    with refused("Bank short: sell down"):
        stock(table, houses=3).deal(sell_building, player=ALICE, slug="boardwalk")


def test_selling_down_to_houses_the_bank_has_exactly(table):
    table = stock(with_buildings(table, ALICE, park_place=HOTEL, boardwalk=HOTEL), houses=2)
    deal = table.deal(sell_down, player=ALICE, group="dark-blue", houses=1)
    assert table.after(deal).estate.houses_in_bank == 0
    assert deal.postings == (Posting(BANK, ALICE, 2 * 4 * 1 * M, "building-sale"),)
    with refused("Bank short of houses"):
        table.deal(sell_down, player=ALICE, group="dark-blue", houses=2)
    with pytest.raises(AmountError, match="Houses 0-4"):
        table.deal(sell_down, player=ALICE, group="dark-blue", houses=5)
    assert stock(table, houses=8).deal(sell_down, player=ALICE, group="dark-blue", houses=4).postings[0].amount == 2 * M


def shortage_table(table, houses_in_bank):
    """Bob's greens at 2 houses (6 more wanted), Alice's dark blues bare (8 wanted): 14 houses wanted in all."""
    table = with_buildings(table, BOB, pacific_avenue=2, north_carolina_avenue=2, pennsylvania_avenue=2)
    return stock(table, houses=houses_in_bank + 6)


def test_a_house_shortage_needs_more_wanted_than_the_bank_has(table):
    with refused("No house shortage"):
        house_shortage(shortage_table(table, 14))  # exactly what the lots could take: no auction
    house_shortage(shortage_table(table, 13))
    deal = shortage_table(table, 13).deal(build, player=ALICE, slug="boardwalk", price=2_100 * K)
    assert deal.postings == (Posting(ALICE, BANK, 2_100 * K, "house"),)


def test_a_hotel_shortage_needs_more_hotel_lots_than_hotels(table):
    table = with_buildings(table, ALICE, park_place=4, boardwalk=4)
    table = with_buildings(table, BOB, pacific_avenue=4, north_carolina_avenue=4, pennsylvania_avenue=4)
    with refused("No hotel shortage"):
        hotel_shortage(stock(table, hotels=5))  # 5 lots want the hotel: exactly the bank's
    hotel_shortage(stock(table, hotels=4))
    with refused("Bank has no hotels"):
        hotel_shortage(stock(table, hotels=0))


# -- rent ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("dice, one, both", [(2, 80 * K, 200 * K), (7, 280 * K, 700 * K), (12, 480 * K, 1_200 * K)])
def test_a_utility_s_rent_is_the_roll_times_4_or_10(dice, one, both):
    table = Table.new(players=(ALICE, BOB)).hand(ALICE, "electric-company")
    assert rent_due(table.edition, table.estate, "electric-company", dice) == one
    deal = table.deal(rent, payer=BOB, slug="electric-company", dice=dice)
    assert deal.postings == (Posting(BOB, ALICE, one, "rent"),)
    table = table.hand(ALICE, "water-works")
    assert rent_due(table.edition, table.estate, "electric-company", dice) == both


@pytest.mark.parametrize("dice", [1, 13, 0, None, True])
def test_a_roll_outside_2_to_12_is_refused(dice):
    table = Table.new(players=(ALICE, BOB)).hand(ALICE, "electric-company")
    with refused("Dice total 2-12", AmountError):
        table.deal(rent, payer=BOB, slug="electric-company", dice=dice)


def test_railroad_rent_counts_the_owner_s_railroads():
    table = Table.new(players=(ALICE, BOB))
    roads = ("reading-railroad", "pennsylvania-railroad", "b-and-o-railroad", "short-line")
    for n, road in enumerate(roads, 1):
        table = table.hand(ALICE, road)
        assert rent_due(table.edition, table.estate, "reading-railroad") == (250 * K) * 2 ** (n - 1)


def test_street_rent_bare_whole_group_and_built(table):
    e = table.edition
    lone = Table.new(players=(ALICE, BOB)).hand(ALICE, "boardwalk")
    assert rent_due(e, lone.estate, "boardwalk") == 500 * K
    assert rent_due(e, table.estate, "boardwalk") == 1 * M
    built = with_buildings(table, ALICE, park_place=1, boardwalk=1)
    assert rent_due(e, built.estate, "boardwalk") == 2 * M
    assert rent_due(e, with_buildings(table, ALICE, park_place=HOTEL, boardwalk=HOTEL).estate, "boardwalk") == 20 * M


def test_rent_is_refused_on_an_unsold_own_or_mortgaged_deed(table):
    with refused("Baltic Ave is unsold"):
        table.deal(rent, payer=BOB, slug="baltic-avenue")
    with refused("You own Boardwalk"):
        table.deal(rent, payer=ALICE, slug="boardwalk")
    mortgaged = table.play(mortgage, player=ALICE, slug="boardwalk")
    assert rent_due(table.edition, mortgaged.estate, "boardwalk") == 0
    with refused("Mortgaged: no rent"):
        mortgaged.deal(rent, payer=BOB, slug="boardwalk")


# -- mortgages -----------------------------------------------------------------------------------

def test_interest_is_ten_percent_rounded_up_to_10k(table):
    e = table.edition
    assert interest(e, e.deed("boardwalk")) == 200 * K and lift_cost(e, e.deed("boardwalk")) == 2_200 * K
    assert interest(e, e.deed("mediterranean-avenue")) == 30 * K
    odd = replace(e.deed("boardwalk"), mortgage=2_000_001)
    assert interest(e, odd) == 210 * K  # 200,000.1 rounds up a whole step
    assert interest(e, replace(odd, mortgage=1_900_000)) == 190 * K


def test_mortgaging_and_lifting_move_the_mortgage_and_its_interest(table):
    after = table.play(mortgage, player=ALICE, slug="boardwalk")
    assert after.balance(ALICE) == 15 * M + 2 * M
    deal = after.deal(lift_mortgage, player=ALICE, slug="boardwalk")
    assert deal.postings == (Posting(ALICE, BANK, 2 * M, "lift-mortgage"), Posting(ALICE, BANK, 200 * K, "interest"))
    with refused("Already mortgaged"):
        after.deal(mortgage, player=ALICE, slug="boardwalk")
    with refused("Not mortgaged"):
        table.deal(lift_mortgage, player=ALICE, slug="boardwalk")


def test_a_house_shortage_with_the_bank_s_last_house_and_with_none(table):
    house_shortage(shortage_table(table, 1))  # one house for 14 wanted: auctioned
    with refused("Bank has no houses"):
        house_shortage(shortage_table(table, 0))


def test_a_street_its_owner_may_not_build_on_wants_no_house(table):
    table = shortage_table(table, 14).hand(BOB, "baltic-avenue")  # Bob lacks Mediterranean: no house there
    with refused("No house shortage"):
        house_shortage(table)


def test_a_lot_s_next_building_decides_which_auction_it_may_open(table):
    from banker.rules.buildings import next_is_hotel, require_hotel_lot, require_house_lot

    ready = with_buildings(table, ALICE, park_place=4, boardwalk=4)
    assert next_is_hotel(ready, player=ALICE, slug="boardwalk") is True
    require_hotel_lot(ready, player=ALICE, slug="boardwalk")
    with refused("Next is the hotel"):
        require_house_lot(ready, player=ALICE, slug="boardwalk")
    built = with_buildings(table, ALICE, park_place=3, boardwalk=3)
    assert next_is_hotel(built, player=ALICE, slug="boardwalk") is False
    with refused("Next is a house"):
        require_hotel_lot(built, player=ALICE, slug="boardwalk")
    with refused("Already a hotel"):
        next_is_hotel(with_buildings(table, ALICE, park_place=HOTEL, boardwalk=HOTEL), player=ALICE, slug="boardwalk")


def test_a_builder_s_hotel_lot_wants_no_more_houses(table):
    """Alice's dark blues have hotels (wanting nothing), her greens and Bob's oranges are bare: 24 houses wanted."""
    table = with_buildings(table, ALICE, park_place=HOTEL, boardwalk=HOTEL)
    table = table.hand(ALICE, "pacific-avenue", "north-carolina-avenue", "pennsylvania-avenue")
    table = table.hand(BOB, "st-james-place", "tennessee-avenue", "new-york-avenue")
    with refused("No house shortage"):
        house_shortage(stock(table, houses=24))
    house_shortage(stock(table, houses=23))


def test_selling_down_returns_houses_to_an_empty_bank(table):
    table = stock(with_buildings(table, ALICE, park_place=3, boardwalk=3), houses=6)
    assert table.estate.houses_in_bank == 0
    after = table.play(sell_down, player=ALICE, group="dark-blue", houses=1)
    assert after.estate.houses_in_bank == 4 and after.estate.houses("boardwalk") == 1
    with pytest.raises(AmountError, match="Houses 0-4"):
        table.deal(sell_down, player=ALICE, group="dark-blue", houses=-1)
