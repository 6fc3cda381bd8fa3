"""Whole deals on the keypad (FN GO 7): deeds both ways, cash either way, jail cards, one record, undo, refusals."""

import pytest

from banker.unit.flows.trade import DealMode
from tests.conftest import Table

M = 1_000_000
K = 1_000


def buy(table: Table, name: str, *squares: str) -> None:
    """``name`` buys the deeds on ``squares`` at their printed prices (alone on -)."""
    table.insert("right", name)
    for square in squares:
        table.type(f"FN {square[0]} {square[1]} M")
    table.remove("right")


def draw_jail_card(table: Table, name: str) -> None:
    table.insert("left", name)
    table.type("FN GO 4")
    table.remove("left")


def open_deal(table: Table, plus: str = "Alice", minus: str = "Bob") -> None:
    table.insert("left", plus)
    table.insert("right", minus)
    table.type("FN GO 7")


def agree(table: Table) -> None:
    """Both players lift their card and lay it again."""
    for reader, name in (("left", "Alice"), ("right", "Bob")):
        table.remove(reader)
        table.insert(reader, name)


@pytest.fixture
def dealt(table):
    """Alice holds Boardwalk, Park Place and a jail card; Bob holds Mediterranean and Baltic Avenue."""
    buy(table, "Alice", "39", "37")
    buy(table, "Bob", "01", "03")
    draw_jail_card(table, "Alice")
    return table


def posted(table: Table) -> int:
    return len(table.ledger.transactions())


def test_the_player_menu_opens_a_deal_between_the_two_cards(dealt):
    open_deal(dealt)
    assert isinstance(dealt.shell.panel.mode, DealMode)
    assert dealt.screen_lines() == ["Alice gives       1/2", "nothing", "", "GO side K page M done"]


def test_a_three_part_deal_is_one_record(dealt):
    before = posted(dealt)
    open_deal(dealt)
    dealt.type("FN 3 9")     # Alice's Boardwalk
    dealt.type("FN 4")       # Alice's jail card
    dealt.type("FN 0 1")     # Bob's Mediterranean: the screen turns to Bob's side
    assert dealt.screen_lines()[:2] == ["Bob gives         2/2", "Medit. Ave"]
    dealt.type("3 M")        # cash from the side shown: Bob
    assert "Cash 3M" in dealt.shown
    dealt.press("M")
    assert "Both: tap to agree" in dealt.shown
    agree(dealt)
    assert dealt.screen_lines() == ["Traded 2 deeds+card", "Alice 10.5M", "Bob 10.8M", "Undo: FN C M"]
    assert posted(dealt) == before + 1
    tx = dealt.ledger.transactions()[-1]
    assert tx.kind == "trade" and len(tx.changes) == 3
    assert dealt.owner("boardwalk") == "Bob" and dealt.owner("mediterranean-avenue") == "Alice"
    assert dealt.ledger.game().estate.jail_cards_of(dealt.ledger.game().card_by_uid("B2").id) == 1
    assert dealt.balances() == {"Alice": 7.5 * M + 3 * M, "Bob": 13.8 * M - 3 * M}


def test_cash_goes_from_the_side_shown_and_go_turns_it_round(dealt):
    open_deal(dealt)
    dealt.type("FN 0 1")         # Bob's deed; Alice pays for it
    dealt.press("GO")
    assert dealt.screen_lines()[0].startswith("Alice gives")
    dealt.type("5 0 0 K")
    dealt.type("2 M")            # typing again replaces the cash
    assert "Cash 2M" in dealt.shown and "500K" not in dealt.shown
    dealt.press("M")
    agree(dealt)
    assert dealt.balances() == {"Alice": 7.5 * M - 2 * M, "Bob": 13.8 * M + 2 * M}


def test_jail_cards_go_either_way_and_the_key_counts_round(dealt):
    draw_jail_card(dealt, "Bob")     # the second of the game's two
    open_deal(dealt)
    dealt.press("GO")
    dealt.type("FN 4")
    assert "1 jail card" in dealt.shown
    dealt.type("FN 4")           # Bob holds one: a second press takes it out
    assert "jail card" not in dealt.shown
    dealt.type("FN 4 GO 1 M")    # Bob's card for 1M of Alice's
    dealt.press("M")
    agree(dealt)
    game = dealt.ledger.game()
    assert game.estate.jail_cards_of(game.card_by_uid("A1").id) == 2
    assert game.estate.jail_cards_of(game.card_by_uid("B2").id) == 0
    assert dealt.balances() == {"Alice": 6.5 * M, "Bob": 14.8 * M}


def test_a_deed_tag_tapped_joins_the_deal_and_leaves_it_tapped_again(dealt):
    dealt.enrol_deed("boardwalk", "D39")
    open_deal(dealt)
    dealt.remove("left")         # the tag is tapped where Alice's card lay
    dealt.tap("left", "boardwalk")
    assert "Boardwalk" in dealt.shown and isinstance(dealt.shell.panel.mode, DealMode)
    dealt.tap("left", "boardwalk")
    assert "Boardwalk" not in dealt.shown
    dealt.insert("left", "Alice")
    assert isinstance(dealt.shell.panel.mode, DealMode)


@pytest.mark.parametrize("keys, message", [
    ("FN 0 6", "belongs to the bank"),                      # unsold
    ("FN 0 5", "belongs to Carol"),                         # a third player's
    ("GO 2 0 M", "Bob short 6.2M"),                         # more cash than Bob has
    ("GO FN 4", "Bob has no"),                              # no jail card to give
    ("FN 0 0", "No deed on 00"),
    ("FN 5", "or 4: a jail card"),
])
def test_each_part_is_checked_as_it_comes(dealt, keys, message):
    dealt.enrol("Carol", "C3")
    buy(dealt, "Carol", "05")
    before = posted(dealt)
    open_deal(dealt)
    dealt.type(keys)
    assert message in dealt.shown and dealt.shell.screen.error
    assert posted(dealt) == before and isinstance(dealt.shell.panel.mode, DealMode)


def test_no_deed_of_a_group_with_buildings(table):
    buy(table, "Alice", "01", "03")
    table.insert("right", "Alice")
    table.type("FN 0 1 1")
    table.remove("right")
    open_deal(table)
    table.type("FN 0 3")
    assert "Sell buildings first" in table.shown
    assert "Baltic" not in table.shown.split("|")[0]
    assert table.shell.panel.mode.gives[0].deeds == ()


def test_a_deal_with_nothing_but_cash_is_refused_at_m(dealt):
    before = posted(dealt)
    open_deal(dealt)
    dealt.type("1 M M")
    assert "Nothing to trade" in dealt.shown
    assert posted(dealt) == before


def test_c_cancels_the_deal_with_nothing_written(dealt):
    before = posted(dealt)
    open_deal(dealt)
    dealt.type("FN 3 9 GO 1")
    dealt.press("C")                 # clears the amount typed first
    assert dealt.screen_lines()[-1] == "GO side K page M done"
    dealt.press("M")
    dealt.press("C")                 # from the agreement back to the deal
    assert dealt.shell.panel.mode.stage == "build"
    dealt.press("C")
    assert dealt.screen_lines() == ["Deal cancelled", "Nothing changed"]
    assert dealt.shell.panel.mode is None and posted(dealt) == before
    assert dealt.owner("boardwalk") == "Alice"


def test_mortgaged_deeds_interest_or_lift_chosen_per_deed(dealt):
    dealt.insert("right", "Alice")
    dealt.type("FN 3 9 .")           # Boardwalk mortgaged: +2M
    dealt.type("FN 3 7 .")           # Park Place mortgaged: +1.75M
    dealt.remove("right")
    open_deal(dealt)
    dealt.type("FN 3 9 FN 3 7 GO 1 M")
    dealt.press("GO")
    assert "Boardwalk mortgaged" in dealt.shown
    dealt.press("M")
    assert dealt.screen_lines() == ["Mortgaged Boardwalk", "Bob takes it:", "M: pays 10% 200K", ".: lifts it 2.2M"]
    dealt.press("M")                 # Boardwalk: the 10% now, still mortgaged
    assert dealt.screen_lines()[0] == "Mortgaged Park Place"
    dealt.press(".")                 # Park Place: lifted at once
    assert live(dealt)["lift_now"] == ["park-place"]
    agree(dealt)
    assert dealt.shown.startswith("Traded 2 deeds |")
    assert dealt.mortgaged("boardwalk") and not dealt.mortgaged("park-place")
    assert dealt.balance("Bob") == 13.8 * M - 1 * M - 200 * K - (1.75 * M + 180 * K)


def test_a_lift_the_taker_cant_pay_is_refused_and_the_choice_asked_again(dealt):
    dealt.insert("right", "Alice")
    dealt.type("FN 3 9 .")
    dealt.remove("right")
    open_deal(dealt)
    dealt.type("FN 3 9 GO 1 2 M M")  # Bob pays 12M of his 13.8M: he can't lift it (2.2M) too
    dealt.press(".")
    assert "Bob short" in dealt.shown and dealt.shell.screen.error
    assert dealt.shell.panel.mode.stage == "mortgages"
    dealt.press("M")
    agree(dealt)
    assert dealt.owner("boardwalk") == "Bob" and dealt.mortgaged("boardwalk")


def test_undo_reverses_the_whole_deal(dealt):
    balances = dealt.balances()
    open_deal(dealt)
    dealt.type("FN 3 9 FN 4 FN 0 1 3 M M")
    agree(dealt)
    dealt.remove("left")
    dealt.remove("right")
    dealt.type("FN C")
    assert "Undo #" in dealt.shown
    dealt.press("M")
    assert "reversed" in dealt.shown
    assert dealt.balances() == balances
    assert dealt.owner("boardwalk") == "Alice" and dealt.owner("mediterranean-avenue") == "Bob"
    game = dealt.ledger.game()
    assert game.estate.jail_cards_of(game.card_by_uid("A1").id) == 1


def test_agreement_is_each_card_laid_again_and_only_theirs(dealt):
    dealt.enrol("Carol", "C3")
    before = posted(dealt)
    open_deal(dealt)
    dealt.type("FN 3 9 GO 1 M M")
    assert live(dealt)["confirmed"] == []
    dealt.remove("left")
    dealt.insert("left", "Carol")    # a third player's card agrees to nothing
    dealt.remove("left")
    assert posted(dealt) == before
    dealt.insert("left", "Alice")
    assert dealt.screen_lines()[-1] == "Bob: tap to agree"
    assert live(dealt)["confirmed"] == ["Alice"]
    dealt.press("M")                 # a key agrees to nothing either
    assert "lift your" in dealt.shown and posted(dealt) == before
    dealt.remove("right")
    dealt.insert("right", "Bob")
    assert posted(dealt) == before + 1


def test_a_retired_player_gets_no_deal(dealt):
    dealt.enrol("Carol", "C3")
    dealt.insert("right", "Carol")
    dealt.type("FN GO 5 M")          # Carol retires, owing the bank
    dealt.remove("right")
    before = posted(dealt)
    open_deal(dealt, plus="Carol", minus="Bob")
    assert "Carol is bankrupt" in dealt.shown and dealt.shell.screen.error
    assert not isinstance(dealt.shell.panel.mode, DealMode) and posted(dealt) == before


def test_a_deal_built_before_a_bankruptcy_is_refused_when_checked_after_it(dealt):
    """A deal built before a bankruptcy can't go through after it: checking it names the retired player (the fold
    refusing a deed given to a retired player is tests/fold/test_retired.py's)."""
    from banker.unit.flows.trade import DealMode as Deal
    from banker.rules import Offer

    game = dealt.ledger.game()
    alice, bob = game.card_by_uid("A1"), game.card_by_uid("B2")
    dealt.insert("right", "Bob")
    dealt.type("FN GO 5 M")
    deal = Deal(alice, bob, gives=(Offer(deeds=("boardwalk",)), Offer(cash=M)))
    assert "Bob is bankrupt" in deal.check(dealt.ledger.game()).text


def test_the_deal_pages_through_with_k_and_every_line_fits(dealt):
    buy(dealt, "Alice", "34", "32", "31")
    open_deal(dealt)
    dealt.type("FN 3 9 FN 3 7 FN 3 4 FN 3 2 FN 3 1 FN 4")
    seen = []
    for _ in range(5):
        seen.append(dealt.screen_lines())
        dealt.press("K")
    heads = [lines[0] for lines in seen]
    assert sorted(heads[:4]) == ["Alice gives       1/4", "Alice gives       2/4", "Alice gives       3/4",
                                 "Bob gives         4/4"] and heads[4] == heads[0]
    assert all(len(line) <= 21 and "~" not in line for lines in seen for line in lines)


def live(table) -> dict:
    """The deal's live view for the table page, as the step asks it."""
    from banker.unit.step import live as live_view

    return live_view(table.shell.panel, table.ledger.game())


def test_live_shows_the_whole_deal(dealt):
    open_deal(dealt)
    dealt.type("FN 3 9 FN 4 FN 0 1 3 M")
    assert live(dealt) == {
        "kind": "deal", "first": "Alice", "second": "Bob",
        "first_gives": {"deeds": ["boardwalk"], "deed_names": ["Boardwalk"], "jail_cards": 1, "cash": 0,
                        "cash_text": None},
        "second_gives": {"deeds": ["mediterranean-avenue"], "deed_names": ["Mediterranean Avenue"], "jail_cards": 0,
                         "cash": 3 * M, "cash_text": "3M"},
        "lift_now": [], "stage": "build", "confirmed": []}


def test_while_a_choice_or_the_agreement_waits_the_deal_cant_change(dealt):
    dealt.enrol_deed("park-place", "D37")
    dealt.insert("right", "Alice")
    dealt.type("FN 3 9 .")
    dealt.remove("right")
    open_deal(dealt)
    dealt.type("FN 3 9 GO 1 M M")
    dealt.type("FN")
    assert "M: pays the 10% now" in dealt.shown and dealt.shell.panel.mode.stage == "mortgages"
    dealt.press("M")
    dealt.remove("left")
    dealt.tap("left", "park-place")
    assert "To agree: lift your" in dealt.shown
    assert dealt.shell.panel.mode.gives[0].deeds == ("boardwalk",)


def test_a_deal_keeps_the_unit_awake_while_the_table_negotiates(table):
    table.insert("left", "Alice")
    table.insert("right", "Bob")
    table.type("FN GO 7")
    table.wait(600)
    assert not table.shell.screen.asleep and "Alice gives" in table.shown
