"""Net worth (Income Tax's total worth), the short and time-limit game's valuation, and the final ranking."""

from dataclasses import replace

from tests.rules.table import Table
from banker.rules import HOTEL, SHORT_GAME, apply, end_game_worth, mortgage, ranking, total_worth
from banker.journal.records import HousesChange

K, M = 1_000, 1_000_000
ALICE, BOB, CAROL = 1, 2, 3


def position(rules=SHORT_GAME):
    """Alice: 15M + 2M mortgage cash, Short Line mortgaged, a hotel and 3 houses on the dark blues."""
    table = Table.new(players=(ALICE, BOB, CAROL), rules=rules).hand(ALICE, "park-place", "boardwalk", "short-line")
    table = table.play(mortgage, player=ALICE, slug="short-line")
    return replace(table, estate=apply(table.estate, [HousesChange("park-place", 0, 3), HousesChange("boardwalk", 0, HOTEL)]))


def worth(valuation, table, player=ALICE):
    return valuation(table, player)


def test_total_worth_counts_mortgaged_deeds_at_their_printed_price():
    table = position()
    # cash 16M + deeds 3.5M + 4M + 2M + 3 houses 6M + short-game hotel (3 houses + 1) 8M
    assert worth(total_worth, table) == 16 * M + 9_500 * K + 6 * M + 8 * M


def test_the_end_of_game_valuation_counts_a_mortgaged_deed_at_half_its_price():
    table = position()
    assert worth(end_game_worth, table) == 16 * M + 3_500 * K + 4 * M + 1 * M + 6 * M + 8 * M


def test_a_hotel_counts_five_house_prices_in_the_standard_game():
    table = position(rules=replace(SHORT_GAME, houses_for_hotel=4))
    assert worth(total_worth, table) == 16 * M + 9_500 * K + 6 * M + 10 * M


def test_a_player_with_nothing_but_cash_is_worth_their_cash():
    assert worth(end_game_worth, position(), BOB) == 15 * M


def test_the_richest_player_ranks_first_and_equal_worth_shares_a_place():
    table = position()
    standings = ranking(table)
    assert [(s.place, s.player) for s in standings] == [(1, ALICE), (2, BOB), (2, CAROL)]
    assert standings[0].worth == 16 * M + 3_500 * K + 4 * M + 1 * M + 6 * M + 8 * M


def test_only_the_players_still_in_the_game_are_ranked():
    table = position()
    standings = ranking(table, players=(BOB, CAROL))
    assert {s.player for s in standings} == {BOB, CAROL}
