"""GO salary, Income Tax (flat or 10% of total worth), Luxury Tax and the jail fine."""

from dataclasses import replace

import pytest

from banker.errors import InsufficientFunds
from banker.journal.records import BANK, HousesChange, Posting
from tests.rules.table import Table
from banker.rules import RuleSettings, apply, income_tax, jail_fine, luxury_tax, mortgage, pass_go

from tests.rules.support import K, M, refused

ALICE = 1


def test_passing_go_pays_2m():
    assert Table.new().deal(pass_go, player=ALICE).postings == (Posting(BANK, ALICE, 2 * M, "go"),)


def test_passing_go_then_drawing_advance_to_go_pays_4m():
    assert Table.new().play(pass_go, player=ALICE, times=2).balance(ALICE) == 19 * M


def test_go_never_pays_three_times():
    with refused("GO pays once or twice"):
        Table.new().deal(pass_go, player=ALICE, times=3)


def test_income_tax_is_a_flat_2m():
    assert Table.new().deal(income_tax, player=ALICE).postings == (Posting(ALICE, BANK, 2 * M, "income-tax"),)


def test_the_10_percent_option_is_off_by_default():
    with refused("10% option is off"):
        Table.new().deal(income_tax, player=ALICE, percent=True)


def test_10_percent_counts_cash_deed_prices_mortgaged_or_not_and_buildings_at_cost():
    table = Table.new(rules=RuleSettings(income_tax_choice=True))
    table = table.hand(ALICE, "park-place", "boardwalk", "short-line")
    table = replace(table, estate=apply(table.estate, [HousesChange("park-place", 0, 1), HousesChange("boardwalk", 0, 2)]))
    table = table.play(mortgage, player=ALICE, slug="short-line")
    # cash 16M + deeds 3.5M + 4M + 2M (mortgaged, still at its price) + 3 houses at 2M = 31.5M
    deal = table.deal(income_tax, player=ALICE, percent=True)
    assert deal.postings == (Posting(ALICE, BANK, 3_150 * K, "income-tax"),)


def test_luxury_tax_is_1m():
    assert Table.new().play(luxury_tax, player=ALICE).balance(ALICE) == 14 * M


def test_older_sets_charge_750k_luxury_tax():
    table = Table.new(rules=RuleSettings(luxury_tax=750 * K))
    assert table.play(luxury_tax, player=ALICE).balance(ALICE) == 14_250 * K


def test_the_jail_fine_is_500k():
    assert Table.new().deal(jail_fine, player=ALICE).postings == (Posting(ALICE, BANK, 500 * K, "jail-fine"),)


def test_a_tax_the_player_cannot_pay_is_refused_with_the_shortfall():
    with pytest.raises(InsufficientFunds) as refusal:
        Table.new().with_balance(ALICE, 1_500 * K).play(income_tax, player=ALICE)
    assert refusal.value.shortfall == 500 * K
