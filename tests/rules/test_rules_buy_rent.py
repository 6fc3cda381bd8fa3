"""Buying deeds from the bank (printed price, auction) and paying rent on streets, railroads and utilities."""

from dataclasses import replace
from types import SimpleNamespace

import pytest

from banker.errors import AmountError, InsufficientFunds
from banker.journal.records import BANK, HousesChange, OwnerChange, Posting
from tests.rules.table import Table
from banker.rules import STANDARD, RuleSettings, apply, buy, mortgage, rent, rent_due

from tests.rules.support import K, M, refused

ALICE, BOB, CAROL = 1, 2, 3


@pytest.fixture
def table():
    return Table.new(players=(ALICE, BOB, CAROL))


# --- buying ---------------------------------------------------------------

def test_buying_baltic_costs_its_printed_600k(table):
    table = table.play(buy, buyer=ALICE, slug="baltic-avenue")
    assert table.balance(ALICE) == 15 * M - 600 * K
    assert table.estate.owner("baltic-avenue") == ALICE


def test_a_purchase_is_one_posting_to_the_bank_and_one_owner_change(table):
    deal = table.deal(buy, buyer=ALICE, slug="boardwalk")
    assert deal.postings == (Posting(ALICE, BANK, 4 * M, "buy"),)
    assert deal.changes == (OwnerChange("boardwalk", None, ALICE),)
    assert deal.kind == "buy" and deal.summary == "Bought Boardwalk"


def test_an_owned_deed_cannot_be_bought(table):
    table = table.play(buy, buyer=ALICE, slug="boardwalk")
    with refused("Boardwalk is owned"):
        table.deal(buy, buyer=BOB, slug="boardwalk")


def test_a_player_short_of_money_cannot_buy_and_is_told_the_shortfall(table):
    table = table.with_balance(ALICE, 3 * M)
    with pytest.raises(InsufficientFunds) as refusal:
        table.play(buy, buyer=ALICE, slug="boardwalk")
    assert refusal.value.shortfall == 1 * M


def test_with_negative_balances_allowed_a_short_player_still_buys():
    table = Table.new(rules=RuleSettings(allow_negative=True)).with_balance(ALICE, 3 * M)
    assert table.play(buy, buyer=ALICE, slug="boardwalk").balance(ALICE) == -1 * M


def test_an_auction_sells_at_the_winning_bid_even_below_the_printed_price(table):
    deal = table.deal(buy, buyer=BOB, slug="boardwalk", price=10 * K)
    assert deal.postings == (Posting(BOB, BANK, 10 * K, "auction"),)
    assert deal.kind == "auction"


def test_an_auction_bid_must_be_positive(table):
    with refused("Bid must be > 0", AmountError):
        table.deal(buy, buyer=BOB, slug="boardwalk", price=0)


def test_an_auction_bid_over_the_bidders_cash_is_refused(table):
    with pytest.raises(InsufficientFunds):
        table.play(buy, buyer=BOB, slug="boardwalk", price=16 * M)


# --- rent on streets ------------------------------------------------------

def test_landing_on_baltic_alone_costs_40k_paid_to_its_owner(table):
    table = table.hand(ALICE, "baltic-avenue")
    deal = table.deal(rent, payer=BOB, slug="baltic-avenue")
    assert deal.postings == (Posting(BOB, ALICE, 40 * K, "rent"),)


def test_owning_both_browns_doubles_baltics_rent_to_80k(table):
    table = table.hand(ALICE, "baltic-avenue", "mediterranean-avenue")
    assert rent_due(table.edition, table.estate, "baltic-avenue") == 80 * K


def test_the_double_rent_stands_when_a_sibling_is_mortgaged(table):
    table = table.hand(ALICE, "baltic-avenue", "mediterranean-avenue")
    table = table.play(mortgage, player=ALICE, slug="mediterranean-avenue")
    assert rent_due(table.edition, table.estate, "baltic-avenue") == 80 * K


def test_two_of_three_light_blues_do_not_double_the_rent(table):
    table = table.hand(ALICE, "oriental-avenue", "vermont-avenue").hand(BOB, "connecticut-avenue")
    assert rent_due(table.edition, table.estate, "oriental-avenue") == 60 * K


@pytest.mark.parametrize(
    "houses, due", [(1, 2 * M), (2, 6 * M), (3, 14 * M), (4, 17 * M), (5, 20 * M)]
)
def test_boardwalks_rent_follows_its_houses_and_hotel(table, houses, due):
    table = table.hand(ALICE, "park-place", "boardwalk")
    estate = apply(table.estate, [HousesChange("boardwalk", 0, houses)])
    assert rent_due(table.edition, estate, "boardwalk") == due


# --- rent on railroads and utilities ---------------------------------------

@pytest.mark.parametrize("owned, due", [(1, 250 * K), (2, 500 * K), (3, 1 * M), (4, 2 * M)])
def test_railroad_rent_depends_on_how_many_railroads_the_owner_has(table, owned, due):
    railroads = ["reading-railroad", "pennsylvania-railroad", "b-and-o-railroad", "short-line"]
    table = table.hand(ALICE, *railroads[:owned]).hand(BOB, *railroads[owned:])
    assert rent_due(table.edition, table.estate, "reading-railroad") == due


def test_a_mortgaged_railroad_still_counts_towards_the_others_rent(table):
    table = table.hand(ALICE, "reading-railroad", "short-line")
    table = table.play(mortgage, player=ALICE, slug="short-line")
    assert rent_due(table.edition, table.estate, "reading-railroad") == 500 * K


def test_one_utility_charges_40k_per_pip_of_the_dice(table):
    table = table.hand(ALICE, "electric-company")
    deal = table.deal(rent, payer=BOB, slug="electric-company", dice=7)
    assert deal.postings == (Posting(BOB, ALICE, 280 * K, "rent"),)


def test_both_utilities_charge_100k_per_pip(table):
    table = table.hand(ALICE, "electric-company", "water-works")
    assert rent_due(table.edition, table.estate, "water-works", dice=12) == 1_200 * K


@pytest.mark.parametrize("dice", [None, 1, 13, 0])
def test_utility_rent_needs_a_dice_total_of_2_to_12(table, dice):
    table = table.hand(ALICE, "water-works")
    with refused("Dice total 2-12", AmountError):
        table.deal(rent, payer=BOB, slug="water-works", dice=dice)


# --- when no rent is due ----------------------------------------------------

def test_no_rent_on_a_mortgaged_deed(table):
    table = table.hand(ALICE, "boardwalk").play(mortgage, player=ALICE, slug="boardwalk")
    assert rent_due(table.edition, table.estate, "boardwalk") == 0
    with refused("Mortgaged: no rent"):
        table.deal(rent, payer=BOB, slug="boardwalk")


def test_no_rent_on_your_own_deed(table):
    table = table.hand(ALICE, "boardwalk")
    with refused("You own Boardwalk"):
        table.deal(rent, payer=ALICE, slug="boardwalk")


def test_no_rent_on_an_unsold_deed(table):
    assert rent_due(table.edition, table.estate, "boardwalk") == 0
    with refused("Boardwalk is unsold"):
        table.deal(rent, payer=ALICE, slug="boardwalk")


def test_rent_the_payer_cannot_cover_is_refused_with_the_shortfall(table):
    table = table.hand(ALICE, "park-place", "boardwalk").with_balance(BOB, 300 * K)
    with pytest.raises(InsufficientFunds) as refusal:
        table.play(rent, payer=BOB, slug="boardwalk")
    assert refusal.value.shortfall == 700 * K
    assert str(refusal.value) == "Player 2 short 700K"


# --- the game a rule reads ------------------------------------------------

def test_a_rule_reads_any_game_with_an_edition_an_estate_balances_and_rules():
    """Not only a Table: the unit's own game (banker.fold.game.Game) is read the same way."""
    table = Table.new(players=(ALICE, BOB)).hand(ALICE, "boardwalk")
    game = SimpleNamespace(edition=table.edition, estate=table.estate, balances={ALICE: 15 * M, BOB: 300 * K},
                           rules=STANDARD)
    assert rent(game, payer=BOB, slug="boardwalk").postings == (Posting(BOB, ALICE, 500 * K, "rent"),)
    game.rules = RuleSettings(allow_negative=True)
    assert rent(game, payer=BOB, slug="boardwalk").postings == (Posting(BOB, ALICE, 500 * K, "rent"),)


def test_a_rule_leaves_funds_to_the_fold_which_judges_each_card_on_its_net():
    """A rule says what is due; committing it is where a payer who can't cover it is refused."""
    table = Table.new(players=(ALICE, BOB)).hand(ALICE, "boardwalk").with_balance(BOB, 300 * K)
    deal = table.deal(rent, payer=BOB, slug="boardwalk")
    assert deal.postings == (Posting(BOB, ALICE, 500 * K, "rent"),)
    with pytest.raises(InsufficientFunds, match="Player 2 short 200K") as refusal:
        table.after(deal)
    assert refusal.value.shortfall == 200 * K
    lenient = replace(table, rules=RuleSettings(allow_negative=True))
    assert lenient.after(deal).balance(BOB) == -200 * K
