"""Houses and hotels: whole groups, even building and selling, the bank's 32 houses and 12 hotels, half-price resale."""

from dataclasses import replace

import pytest

from banker.errors import AmountError, InsufficientFunds
from banker.journal.records import BANK, HousesChange, Posting
from tests.rules.table import Table
from banker.rules import HOTEL, SHORT_GAME, apply, build, mortgage, rent_due, sell_building, sell_down

from tests.rules.support import K, M, refused

ALICE, BOB = 1, 2
DARK_BLUES = ("park-place", "boardwalk")
GREENS = ("pacific-avenue", "north-carolina-avenue", "pennsylvania-avenue")


def with_buildings(table, player, **houses):
    """The table with ``player`` owning these lots and the given houses on them (5 = hotel)."""
    slugs = [slug.replace("_", "-") for slug in houses]
    table = table.hand(player, *[s for s in slugs if table.estate.owner(s) is None])
    changes = [HousesChange(s, table.estate.houses(s), n) for s, n in zip(slugs, houses.values())]
    return replace(table, estate=apply(table.estate, changes))


@pytest.fixture
def table():
    return Table.new(players=(ALICE, BOB)).hand(ALICE, *DARK_BLUES)


# --- building -------------------------------------------------------------

def test_a_house_on_boardwalk_costs_2m_and_comes_from_the_bank(table):
    deal = table.deal(build, player=ALICE, slug="boardwalk")
    assert deal.postings == (Posting(ALICE, BANK, 2 * M, "house"),)
    assert deal.summary == "House on Boardwalk"
    table = table.after(deal)
    assert table.estate.houses("boardwalk") == 1 and table.estate.houses_in_bank == 31


def test_building_needs_the_whole_colour_group(table):
    table = table.hand(ALICE, "pacific-avenue", "north-carolina-avenue").hand(BOB, "pennsylvania-avenue")
    with refused("Own the whole group"):
        table.deal(build, player=ALICE, slug="pacific-avenue")


def test_nobody_builds_on_a_group_with_a_mortgaged_lot(table):
    table = table.play(mortgage, player=ALICE, slug="park-place")
    with refused("Group has a mortgage"):
        table.deal(build, player=ALICE, slug="boardwalk")


def test_houses_go_on_streets_only(table):
    table = table.hand(ALICE, "reading-railroad", "short-line", "b-and-o-railroad", "pennsylvania-railroad")
    with refused("Streets only"):
        table.deal(build, player=ALICE, slug="short-line")


def test_only_the_owner_builds(table):
    with refused("Boardwalk not yours"):
        table.deal(build, player=BOB, slug="boardwalk")


def test_a_second_house_waits_until_every_lot_has_one(table):
    table = table.play(build, player=ALICE, slug="boardwalk")
    with refused("Build evenly"):
        table.deal(build, player=ALICE, slug="boardwalk")
    table = table.play(build, player=ALICE, slug="park-place")
    assert table.play(build, player=ALICE, slug="boardwalk").estate.houses("boardwalk") == 2


def test_a_hotel_needs_four_houses_on_every_lot(table):
    table = with_buildings(table, ALICE, park_place=3, boardwalk=4)
    with refused("Build evenly"):
        table.deal(build, player=ALICE, slug="boardwalk")


def test_a_hotel_costs_one_more_house_price_and_sends_four_houses_back(table):
    table = with_buildings(table, ALICE, park_place=4, boardwalk=4)
    deal = table.deal(build, player=ALICE, slug="boardwalk")
    assert deal.postings == (Posting(ALICE, BANK, 2 * M, "hotel"),)
    assert deal.summary == "Hotel on Boardwalk"
    table = table.after(deal)
    assert table.estate.houses("boardwalk") == HOTEL
    assert (table.estate.houses_in_bank, table.estate.hotels_in_bank) == (28, 11)


def test_one_hotel_per_lot(table):
    table = with_buildings(table, ALICE, park_place=HOTEL, boardwalk=HOTEL)
    with refused("Already a hotel"):
        table.deal(build, player=ALICE, slug="boardwalk")


def test_when_the_bank_has_no_houses_nobody_builds(table):
    table = with_buildings(
        table, BOB, pacific_avenue=4, north_carolina_avenue=4, pennsylvania_avenue=4,
        atlantic_avenue=4, ventnor_avenue=4, marvin_gardens=4, kentucky_avenue=4, indiana_avenue=4,
    )
    assert table.estate.houses_in_bank == 0
    with refused("Bank has no houses"):
        table.deal(build, player=ALICE, slug="boardwalk")


def test_when_the_bank_has_no_hotels_the_fifth_step_waits(table):
    hotels = {s.replace("-", "_"): HOTEL for s in (
        "st-charles-place", "states-avenue", "virginia-avenue", "st-james-place", "tennessee-avenue",
        "new-york-avenue", "kentucky-avenue", "indiana-avenue", "illinois-avenue", "atlantic-avenue",
        "ventnor-avenue", "marvin-gardens")}
    table = with_buildings(with_buildings(table, BOB, **hotels), ALICE, park_place=4, boardwalk=4)
    with refused("Bank has no hotels"):
        table.deal(build, player=ALICE, slug="boardwalk")


def house_shortage_table(table):
    """Bob's greens and yellows at 4 houses, his reds at 2: 2 houses in the bank, and Alice's dark blues bare."""
    fours = dict.fromkeys(("pacific_avenue", "north_carolina_avenue", "pennsylvania_avenue", "atlantic_avenue",
                           "ventnor_avenue", "marvin_gardens"), 4)
    twos = dict.fromkeys(("kentucky_avenue", "indiana_avenue", "illinois_avenue"), 2)
    table = with_buildings(table, BOB, **fours, **twos)
    assert table.estate.houses_in_bank == 2
    return table


def test_a_shortage_auction_sets_the_price_of_the_house(table):
    deal = house_shortage_table(table).deal(build, player=ALICE, slug="boardwalk", price=2_500 * K)
    assert deal.postings == (Posting(ALICE, BANK, 2_500 * K, "house"),)


def test_a_bid_price_without_a_shortage_is_refused(table):
    with refused("One player can build"):
        table.deal(build, player=ALICE, slug="boardwalk", price=1 * K)
    table = with_buildings(table, BOB, kentucky_avenue=0, indiana_avenue=0, illinois_avenue=0)
    with refused("No house shortage"):
        table.deal(build, player=ALICE, slug="boardwalk", price=1 * K)


def hotel_shortage_table(table):
    """Bob's hotels on 11 lots (1 hotel left) and his greens at 4 houses; Alice's dark blues at 4."""
    hotels = dict.fromkeys(("mediterranean_avenue", "baltic_avenue", "oriental_avenue", "vermont_avenue",
                            "connecticut_avenue", "st_charles_place", "states_avenue", "virginia_avenue",
                            "st_james_place", "tennessee_avenue", "new_york_avenue"), HOTEL)
    table = with_buildings(table, BOB, **hotels, pacific_avenue=4, north_carolina_avenue=4, pennsylvania_avenue=4)
    table = with_buildings(table, ALICE, park_place=4, boardwalk=4)
    assert table.estate.hotels_in_bank == 1
    return table


def test_a_hotel_at_a_bid_only_in_a_hotel_shortage(table):
    table = hotel_shortage_table(table)
    deal = table.deal(build, player=ALICE, slug="boardwalk", price=3 * M)
    assert deal.postings == (Posting(ALICE, BANK, 3 * M, "hotel"),)
    table = with_buildings(table, BOB, pacific_avenue=3, north_carolina_avenue=3, pennsylvania_avenue=3)
    with refused("One player can build"):
        table.deal(build, player=ALICE, slug="boardwalk", price=3 * M)


def test_a_house_the_player_cannot_pay_for_is_refused(table):
    with pytest.raises(InsufficientFunds):
        table.with_balance(ALICE, 1 * M).play(build, player=ALICE, slug="boardwalk")


# --- selling ----------------------------------------------------------------

def test_a_house_sells_back_to_the_bank_for_half_its_price(table):
    table = with_buildings(table, ALICE, park_place=1, boardwalk=1)
    deal = table.deal(sell_building, player=ALICE, slug="boardwalk")
    assert deal.postings == (Posting(BANK, ALICE, 1 * M, "building-sale"),)
    assert deal.summary == "House off Boardwalk"
    assert table.after(deal).estate.houses_in_bank == 31


def test_selling_goes_evenly_from_the_highest_lot(table):
    table = with_buildings(table, ALICE, park_place=1, boardwalk=2)
    with refused("Sell evenly"):
        table.deal(sell_building, player=ALICE, slug="park-place")


def test_a_bare_lot_has_nothing_to_sell(table):
    with refused("No buildings"):
        table.deal(sell_building, player=ALICE, slug="boardwalk")


def test_only_the_owner_sells_buildings(table):
    table = with_buildings(table, ALICE, park_place=1, boardwalk=1)
    with refused("not yours"):
        table.deal(sell_building, player=BOB, slug="boardwalk")


def test_selling_a_hotel_brings_back_four_houses_for_half_a_house_price(table):
    table = with_buildings(table, ALICE, park_place=HOTEL, boardwalk=HOTEL)
    table = table.play(sell_building, player=ALICE, slug="boardwalk")
    assert table.estate.houses("boardwalk") == 4
    assert table.balance(ALICE) == 15 * M + 1 * M
    assert (table.estate.houses_in_bank, table.estate.hotels_in_bank) == (28, 11)


def test_a_hotel_cannot_come_down_to_houses_the_bank_lacks(table):
    table = with_buildings(table, ALICE, park_place=HOTEL, boardwalk=HOTEL)
    table = with_buildings(
        table, BOB, pacific_avenue=4, north_carolina_avenue=4, pennsylvania_avenue=4,
        atlantic_avenue=4, ventnor_avenue=4, marvin_gardens=4, kentucky_avenue=4, indiana_avenue=1,
    )
    assert table.estate.houses_in_bank == 3
    with refused("Bank short: sell down"):
        table.deal(sell_building, player=ALICE, slug="boardwalk")


def test_selling_down_clears_hotels_when_the_bank_is_short_of_houses(table):
    table = with_buildings(table, ALICE, park_place=HOTEL, boardwalk=HOTEL)
    table = with_buildings(
        table, BOB, pacific_avenue=4, north_carolina_avenue=4, pennsylvania_avenue=4,
        atlantic_avenue=4, ventnor_avenue=4, marvin_gardens=4, kentucky_avenue=4, indiana_avenue=1,
    )
    deal = table.deal(sell_down, player=ALICE, group="dark-blue", houses=1)
    assert deal.postings == (Posting(BANK, ALICE, 2 * 4 * 1 * M, "building-sale"),)
    table = table.after(deal)
    assert [table.estate.houses(s) for s in DARK_BLUES] == [1, 1]
    assert (table.estate.houses_in_bank, table.estate.hotels_in_bank) == (1, 12)
    with refused("Bank short of houses"):
        with_buildings(table, ALICE, park_place=HOTEL, boardwalk=HOTEL).deal(
            sell_down, player=ALICE, group="dark-blue", houses=2)


def test_selling_down_to_nothing_pays_half_of_everything_built(table):
    table = with_buildings(table, ALICE, park_place=3, boardwalk=4)
    table = table.play(sell_down, player=ALICE, group="dark-blue")
    assert table.balance(ALICE) == 15 * M + 7 * 1 * M
    assert table.estate.houses_in_bank == 32


def test_selling_down_a_bare_group_has_nothing_to_sell(table):
    with refused("Nothing to sell"):
        table.deal(sell_down, player=ALICE, group="dark-blue", houses=0)


def test_selling_down_to_more_than_a_lot_can_hold_is_an_amount_error(table):
    with refused("Houses 0-4", AmountError):
        table.deal(sell_down, player=ALICE, group="dark-blue", houses=5)


# --- the short game ----------------------------------------------------------

@pytest.fixture
def short():
    return Table.new(players=(ALICE, BOB), rules=SHORT_GAME).hand(ALICE, *DARK_BLUES)


def test_in_the_short_game_a_hotel_follows_three_houses(short):
    table = with_buildings(short, ALICE, park_place=3, boardwalk=3)
    deal = table.deal(build, player=ALICE, slug="boardwalk")
    assert deal.summary == "Hotel on Boardwalk"
    table = table.after(deal)
    assert (table.estate.houses_in_bank, table.estate.hotels_in_bank) == (29, 11)


def test_short_game_hotel_rent_is_the_printed_hotel_rent(short):
    table = with_buildings(short, ALICE, park_place=3, boardwalk=3).play(build, player=ALICE, slug="boardwalk")
    assert rent_due(table.edition, table.estate, "boardwalk") == 20 * M


def test_short_game_hotel_sells_back_for_three_houses(short):
    table = with_buildings(short, ALICE, park_place=HOTEL, boardwalk=HOTEL)
    table = table.play(sell_building, player=ALICE, slug="boardwalk")
    assert table.estate.houses("boardwalk") == 3
    table = table.play(sell_down, player=ALICE, group="dark-blue")
    assert table.balance(ALICE) == 15 * M + 8 * 1 * M  # two hotels, each 4 house prices, at half
