"""Properties over many games: buildings and money are conserved, every deal undoes, every line fits the screen."""

from dataclasses import replace

import pytest
from hypothesis import given, settings as hypothesis_settings, strategies as st

from cards import load_edition
from banker.errors import Refused
from tests.rules.table import Table
from banker.rules import (
    SHORT_GAME, STANDARD, build, buy, lift_mortgage, mortgage, rent, sell_building, sell_down,
)
from banker.rules.holdings import step
from store.codec import decode, encode

us = load_edition("us")
ALICE, BOB = 1, 2
LOTS = ("park-place", "boardwalk", "pacific-avenue", "north-carolina-avenue", "pennsylvania-avenue")
GROUPS = ("dark-blue", "green")


def builder_table(rules):
    return Table.new(players=(ALICE, BOB), rules=rules).hand(ALICE, *LOTS).with_balance(ALICE, 10**9)


@hypothesis_settings(max_examples=200, deadline=None)
@given(rules=st.sampled_from([STANDARD, SHORT_GAME]), moves=st.lists(st.tuples(st.booleans(), st.sampled_from(LOTS)), max_size=60))
def test_building_then_selling_everything_returns_the_bank_to_32_and_12_at_half_the_money(rules, moves):
    table = builder_table(rules)
    built_cost = 0
    for building, slug in moves:
        try:
            deal = table.deal(build if building else sell_building, player=ALICE, slug=slug)
        except Refused:
            continue
        if building:
            built_cost -= deal.net(ALICE)
        table = table.after(deal)
        for group in GROUPS:
            steps = [step(table.estate.houses(d.slug), rules) for d in us.group(group)]
            assert max(steps) - min(steps) <= 1  # always even
    for group in GROUPS:
        try:
            table = table.play(sell_down, player=ALICE, group=group)
        except Refused:
            pass  # nothing left on that group
    assert (table.estate.houses_in_bank, table.estate.hotels_in_bank) == (32, 12)
    assert table.balance(ALICE) == 10**9 - built_cost // 2


RULES = [
    (buy, lambda p, s: {"buyer": p, "slug": s}),
    (rent, lambda p, s: {"payer": p, "slug": s, "dice": 7}),
    (mortgage, lambda p, s: {"player": p, "slug": s}),
    (lift_mortgage, lambda p, s: {"player": p, "slug": s}),
    (build, lambda p, s: {"player": p, "slug": s}),
    (sell_building, lambda p, s: {"player": p, "slug": s}),
]


@hypothesis_settings(max_examples=100, deadline=None)
@given(moves=st.lists(st.tuples(st.sampled_from(RULES), st.sampled_from([ALICE, BOB]),
                                st.sampled_from([d.slug for d in us.deeds])), max_size=40))
def test_every_deal_undoes_exactly_and_its_changes_survive_the_store(moves):
    table = Table.new(players=(ALICE, BOB))
    for (rule, details), player, slug in moves:
        try:
            deal = table.deal(rule, **details(player, slug))
            after = table.after(deal)
        except Refused as refusal:
            assert len(str(refusal)) <= 21
            continue
        assert after.undo(deal) == table
        tx = replace(deal.to_transaction(), id=1, game=1)
        assert decode(*encode(tx), seq=1, time=None) == tx
        assert len(deal.summary) <= 21
        table = after


@pytest.mark.parametrize("deed", us.deeds, ids=lambda d: d.slug)
def test_every_deeds_summaries_and_refusals_fit_one_oled_line(deed):
    table = Table.new(players=(ALICE, BOB))
    lines = [str(pytest.raises(Refused, table.deal, rent, payer=ALICE, slug=deed.slug, dice=7).value)]
    bought = table.deal(buy, buyer=ALICE, slug=deed.slug)
    lines.append(bought.summary)
    table = table.after(bought)
    lines.append(str(pytest.raises(Refused, table.deal, buy, buyer=BOB, slug=deed.slug).value))
    lines.append(str(pytest.raises(Refused, table.deal, mortgage, player=BOB, slug=deed.slug).value))
    lines.append(str(pytest.raises(Refused, table.deal, rent, payer=ALICE, slug=deed.slug, dice=7).value))
    lines.append(table.deal(rent, payer=BOB, slug=deed.slug, dice=7).summary)
    mortgaged = table.deal(mortgage, player=ALICE, slug=deed.slug)
    lines += [mortgaged.summary, table.after(mortgaged).deal(lift_mortgage, player=ALICE, slug=deed.slug).summary]
    assert all(len(line) <= 21 for line in lines), lines
