"""Raising cash at the table (issue 20, item 3): ``0`` on a shortfall's refusal, ``GO`` step by step, then it pays.

Alice owns the light blues with two houses each (the fixture): selling them
back raises 6 x 250K, mortgaging the three deeds 1.6M more, 3.1M in all.
"""

import pytest

from banker.journal.records import BANK, Posting, Transaction
from tests.conftest import Table

K, M = 1_000, 1_000_000


@pytest.fixture
def alice(table: Table) -> Table:
    """Alice: the light blues with two houses each, 8.8M cash."""
    table.insert("right", "Alice")
    for square in ("06", "08", "09"):
        table.type(f"FN {square[0]} {square[1]} M")
    for square in ("06", "08", "09") * 2:
        table.type(f"FN {square[0]} {square[1]} 1")
    table.remove("right")
    assert table.balance("Alice") == 8_800_000
    return table


def transactions(table: Table) -> list[Transaction]:
    return table.ledger.transactions()


def test_the_refusal_offers_0_and_every_line_fits(alice):
    alice.insert("right", "Alice")
    alice.type("9.5M")
    lines = alice.screen_lines()
    assert lines == ["Refused", "Alice short 700K", "Balance 8.8M", "0: raise cash"]
    assert alice.shell.screen.error and alice.tones()[-1] == "refusal"
    alice.press("0")
    assert alice.screen_lines() == ["Alice short 700K", "House off Connect. Av", "GO +250K  C: stop",
                                    "Can raise 3.1M"]
    assert all(len(line) <= 21 for line in lines + alice.screen_lines())


def test_steps_one_by_one_then_go_pays_the_same_payment_renumbered(alice):
    alice.insert("right", "Alice")
    alice.type("9.5M")
    before = len(transactions(alice))
    alice.press("0")
    alice.press("GO")
    assert alice.screen_lines()[0] == "Alice short 450K" and alice.houses("connecticut-avenue") == 1
    alice.press("GO")
    alice.press("GO")
    assert alice.screen_lines()[:3] == ["Alice has enough", "Balance 9.55M", "GO: pay now"]
    assert [t.kind for t in transactions(alice)[before:]] == ["sell-building"] * 3
    alice.press("GO")
    paid = transactions(alice)[-1]
    assert (paid.kind, paid.memo, paid.postings) == ("pay", "Alice paid bank",
                                                    (Posting(alice.ledger.game().card_by_name("Alice").id, BANK,
                                                             9_500_000, "pay"),))
    assert paid.id == transactions(alice)[-2].id + 1 and len(transactions(alice)) == before + 4
    assert alice.balance("Alice") == 50 * K and alice.screen_lines()[:2] == ["Alice -9.5M", "50K"]
    assert alice.shell.panel.mode is None


def test_a_transfer_pays_the_other_player_after_a_mortgage(alice):
    alice.insert("left", "Bob")
    alice.insert("right", "Alice")
    alice.type("10.8M")  # 2M short: six houses (1.5M), then a mortgage
    alice.press("0")
    for _ in range(6):
        alice.press("GO")
    assert alice.screen_lines()[1] == "Mortgage Oriental Av"
    alice.press("GO")
    assert alice.mortgaged("oriental-avenue") and alice.screen_lines()[0] == "Alice has enough"
    alice.press("GO")
    assert alice.balance("Bob") == 25_800_000 and alice.balance("Alice") == 0
    assert transactions(alice)[-1].memo == "Alice paid Bob"


def test_not_enough_says_so_and_leads_to_bankruptcy_to_the_payee(alice):
    alice.insert("left", "Bob")
    alice.insert("right", "Alice")
    alice.type("15M")
    alice.press("0")
    assert alice.screen_lines() == ["Even selling all:", "short 3.1M", "GO: bankrupt", "C: not now"]
    before = len(transactions(alice))
    alice.press("GO")
    assert alice.screen_lines()[:2] == ["Alice bankrupt?", "All goes to Bob"]
    assert len(transactions(alice)) == before  # nothing sold on the way
    alice.press("M")
    game = alice.ledger.game()
    assert game.card_by_name("Alice").id in game.estate.retired
    assert alice.owner("oriental-avenue") == "Bob" and alice.balance("Bob") == 15 * M + 8_800_000 + 1_500_000


def test_short_paying_the_bank_the_bankruptcy_is_to_the_bank(alice):
    alice.insert("right", "Alice")
    alice.type("15M")
    alice.type("0 GO")
    assert alice.screen_lines()[:2] == ["Alice bankrupt?", "All goes to the bank"]


def test_rent_in_the_deed_flow_offers_it_too(alice):
    alice.insert("right", "Bob")
    alice.type("FN 3 9 M")  # Bob buys Boardwalk, then lands on Connecticut Avenue with 2 houses: 1.5M rent...
    alice.type("FN 2 1 M FN 2 3 M FN 2 4 M FN 1 1 M FN 1 3 M FN 1 4 M")
    alice.type(f"{(alice.balance('Bob') - 90 * K) // K}K")  # ...left with 90K, the rest paid to the bank
    alice.remove("right")
    assert alice.balance("Bob") == 90 * K
    alice.type("FN 0 9")
    alice.insert("right", "Bob")
    alice.press("GO")
    assert alice.screen_lines()[1:] == ["Bob short 910K", "Balance 90K", "0: raise cash"]
    alice.press("0")
    assert alice.screen_lines()[1] == "Mortgage St Charles"  # no buildings: mortgages, the smallest first
    for _ in range(10):  # a few steps, each one record; never a loop that could hang the suite
        if alice.screen_lines()[0] == "Bob has enough":
            break
        alice.press("GO")
    assert alice.screen_lines()[0] == "Bob has enough"
    alice.press("GO")
    assert transactions(alice)[-1].kind == "rent" and alice.balance("Alice") == 8_800_000 + 1 * M


def test_a_tax_from_the_player_menu_offers_it(alice):
    alice.insert("right", "Alice")
    alice.type("8.8M")
    alice.remove("right")
    alice.insert("right", "Alice")
    alice.type("FN GO 3")  # the jail fine, 500K
    assert alice.screen_lines()[-1] == "0: raise cash"
    alice.type("0 GO GO")
    assert alice.screen_lines()[:3] == ["Alice has enough", "Balance 500K", "GO: pay now"]
    alice.press("GO")
    assert transactions(alice)[-1].kind == "jail-fine" and alice.balance("Alice") == 0


def test_each_step_is_undone_with_fn_c_m(alice):
    alice.insert("right", "Alice")
    alice.type("9.5M")
    alice.type("0 GO")
    assert alice.houses("connecticut-avenue") == 1 and alice.balance("Alice") == 9_050_000
    alice.type("FN C M")
    assert alice.houses("connecticut-avenue") == 2 and alice.balance("Alice") == 8_800_000


def test_other_keys_on_the_refusal_do_what_they_did(alice):
    alice.insert("right", "Alice")
    alice.type("9.5M")
    alice.type("5M")  # a smaller payment, typed at once
    assert alice.balance("Alice") == 3_800_000
    alice.type("9.5M")
    alice.press("C")
    assert alice.shell.panel.mode is None and "Alice" in alice.shown
    alice.type("9.5M")
    alice.remove("right")
    assert alice.shell.panel.mode is None


def test_c_stops_raising_with_the_steps_kept_and_nothing_paid(alice):
    alice.insert("right", "Alice")
    alice.type("9.5M")
    alice.type("0 GO C")
    assert alice.screen_lines()[:2] == ["Not paid yet", "Alice short 450K"]
    assert alice.balance("Alice") == 9_050_000 and alice.shell.panel.mode is None


def test_a_rule_flow_goes_back_to_its_screen_after_another_key(alice):
    alice.insert("right", "Bob")
    alice.type("14.5M")
    alice.type("FN 3 9")
    alice.press("M")  # Bob, 500K, cannot buy Boardwalk
    assert alice.screen_lines()[-1] == "0: raise cash"
    alice.press("5")  # a bid typed instead: the deed's screen again
    assert "Bid 5_ M/K" in alice.shown


def test_a_retired_players_refusal_offers_nothing(alice):
    alice.enrol("Cleo", "C3")
    alice.insert("right", "Cleo")
    alice.type("FN GO 5 M")
    alice.remove("right")
    alice.insert("right", "Cleo")
    alice.type("1M")
    assert "Cleo is bankrupt" in alice.shown and "0: raise cash" not in alice.shown
