"""Raising cash, the rule (issue 20, item 3): a short player's ways to raise money, in order, and whether they cover.

Buildings are sold back first, evenly and at half price, the groups with
the cheapest houses first; then the bare deeds are mortgaged, the smallest
mortgage first. Every step of a plan is the rules' own deal, so playing the
plan on the table step by step is accepted by the rules each time.
"""

from dataclasses import replace

import pytest

from banker.errors import Refused
from banker.journal.records import HousesChange
from banker.rules import HOTEL, apply, bankrupt, mortgage
from banker.rules.raising import MORTGAGE, SELL, SELL_DOWN, describe, raising_plan
from tests.rules.support import K, M
from tests.rules.table import Table

ALICE, BOB = 1, 2
LIGHT_BLUES = ("oriental-avenue", "vermont-avenue", "connecticut-avenue")
DARK_BLUES = ("park-place", "boardwalk")


def with_buildings(table, player, **houses):
    """The table with ``player`` owning these lots and the given houses on them (5 = hotel)."""
    slugs = [slug.replace("_", "-") for slug in houses]
    table = table.hand(player, *[s for s in slugs if table.estate.owner(s) is None])
    changes = [HousesChange(s, table.estate.houses(s), n) for s, n in zip(slugs, houses.values())]
    return replace(table, estate=apply(table.estate, changes))


def play(table, plan, steps=None):
    """The table after the plan's first ``steps`` steps (all of them by default), each through its own rule."""
    for s in plan.steps[:steps]:
        table = table.play(s.rule, **s.details(plan.player))
    return table


@pytest.fixture
def estate():
    """Alice: the light blues with 3, 2, 2 houses, the dark blues with a house each, Reading Railroad bare."""
    table = Table.new(players=(ALICE, BOB)).hand(ALICE, "reading-railroad")
    return with_buildings(table, ALICE, oriental_avenue=3, vermont_avenue=2, connecticut_avenue=2, park_place=1,
                          boardwalk=1)


def test_in_order_of_cost_bare_deeds_mortgages_then_buildings_evenly_then_the_deeds_they_free(estate):
    plan = raising_plan(estate, player=ALICE, shortfall=3 * M)
    assert describe(plan) == (
        "Mortgage Reading RR +1M",  # a bare deed's mortgage costs 10% to lift: the cheapest money first
        "House off Oriental Av +250K",  # the light blues' houses cost 500K: half back; the highest lot first
        "House off Connect. Av +250K",
        "House off Vermont Ave +250K",
        "House off Oriental Av +250K",
        "House off Connect. Av +250K",
        "House off Vermont Ave +250K",
        "House off Oriental Av +250K",
        "House off Boardwalk +1M",  # the dark blues' houses cost 2M
        "House off Park Place +1M",
        "Mortgage Oriental Av +500K",  # then every deed the sales left bare, the smallest mortgage first
        "Mortgage Vermont Ave +500K",
        "Mortgage Connect. Av +600K",
        "Mortgage Park Place +1.75M",
        "Mortgage Boardwalk +2M",
    )
    assert plan.total == 7 * 250 * K + 2 * M + (500 + 500 + 600 + 1000 + 1750 + 2000) * K == 10_100_000
    assert plan.covers and plan.still_short == 0
    assert plan.needed == plan.steps[:9]  # 1M from the railroad, 2.75M with the light blues', 3.75M with a dark blue


def test_the_order_of_sales_keeps_every_group_even_so_each_step_is_accepted(estate):
    plan = raising_plan(estate, player=ALICE, shortfall=1)
    table = estate
    for s in plan.steps:
        before = table.balance(ALICE)
        table = table.play(s.rule, **s.details(ALICE))  # the rules refuse an uneven sale: none is refused
        steps = [table.estate.houses(slug) for slug in LIGHT_BLUES]
        assert max(steps) - min(steps) <= 1
        assert table.balance(ALICE) - before == s.raises
    assert all(table.estate.houses(slug) == 0 for slug in LIGHT_BLUES + DARK_BLUES)
    assert all(table.estate.is_mortgaged(slug) for slug in LIGHT_BLUES + DARK_BLUES + ("reading-railroad",))


def test_mortgages_are_only_of_deeds_whose_group_is_bare(estate):
    plan = raising_plan(estate, player=ALICE, shortfall=1)
    actions = [s.action for s in plan.steps]
    assert actions == [MORTGAGE] + [SELL] * 9 + [MORTGAGE] * 5  # the railroad was bare from the start
    table = estate
    for s in plan.steps:
        if s.action == MORTGAGE:
            group = table.edition.deed(s.target).group
            assert not any(table.estate.houses(d.slug) for d in table.edition.group(group))
        table = table.play(s.rule, **s.details(ALICE))


def test_a_deed_mortgaged_already_and_a_partner_less_street_are_left_as_they_are():
    table = Table.new(players=(ALICE, BOB)).hand(ALICE, "baltic-avenue", "states-avenue")
    table = table.play(mortgage, player=ALICE, slug="baltic-avenue")
    plan = raising_plan(table, player=ALICE, shortfall=2 * M)
    assert describe(plan) == ("Mortgage States Ave +700K",)
    assert plan.total == 700 * K and not plan.covers and plan.still_short == 1_300_000


def test_a_hotel_the_bank_cannot_break_into_houses_sells_its_group_down():
    table = with_buildings(Table.new(players=(ALICE, BOB)), ALICE, park_place=HOTEL, boardwalk=HOTEL)
    others = dict.fromkeys(("pacific_avenue", "north_carolina_avenue", "pennsylvania_avenue", "kentucky_avenue",
                            "indiana_avenue", "illinois_avenue", "atlantic_avenue", "ventnor_avenue"), 4)
    table = with_buildings(table, BOB, **others)  # Bob's 32 houses: the bank has none left
    assert table.estate.houses_in_bank == 0
    plan = raising_plan(table, player=ALICE, shortfall=1 * M)
    first = plan.steps[0]
    assert (first.action, first.target, first.houses) == (SELL_DOWN, "dark-blue", 0)
    assert first.label == "dark-blue down to 0" and first.raises == 2 * 5 * M
    after = play(table, plan, 1)
    assert after.estate.houses("boardwalk") == 0 and after.balance(ALICE) == 25 * M


def test_a_hotel_sells_for_its_houses_when_the_bank_has_them():
    table = with_buildings(Table.new(players=(ALICE, BOB)), ALICE, park_place=4, boardwalk=HOTEL)
    plan = raising_plan(table, player=ALICE, shortfall=1 * M)
    assert describe(plan)[:3] == ("Hotel off Boardwalk +1M", "House off Boardwalk +1M", "House off Park Place +1M")
    assert len(plan.needed) == 1


@pytest.mark.parametrize("shortfall, covers", [(10_100_000, True), (10_100_001, False)])
def test_enough_or_not_is_the_total_against_the_shortfall(estate, shortfall, covers):
    plan = raising_plan(estate, player=ALICE, shortfall=shortfall)
    assert plan.covers is covers
    assert plan.still_short == (0 if covers else 1)
    assert plan.needed == plan.steps


def test_a_player_with_nothing_to_sell_has_an_empty_plan():
    plan = raising_plan(Table.new(players=(ALICE, BOB)), player=ALICE, shortfall=890 * K)
    assert plan.steps == () and plan.total == 0 and not plan.covers and plan.still_short == 890 * K


def test_the_plan_is_refused_for_a_retired_player(estate):
    table = estate.play(bankrupt, debtor=BOB, creditor=None)
    with pytest.raises(Refused, match="out already"):
        raising_plan(table, player=BOB, shortfall=1)


def test_only_the_players_own_buildings_and_deeds_count(estate):
    bob = with_buildings(estate, BOB, st_james_place=1, tennessee_avenue=1, new_york_avenue=1)
    plan = raising_plan(bob, player=ALICE, shortfall=1)
    assert describe(plan) == describe(raising_plan(estate, player=ALICE, shortfall=1))
    assert describe(raising_plan(bob, player=BOB, shortfall=1))[:1] == ("House off New York Av +500K",)
