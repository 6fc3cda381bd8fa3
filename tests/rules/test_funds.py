"""One funds rule, in the fold: a card whose net over a transaction is a loss may not end below zero.

Rules and undo only build transactions; :func:`banker.fold.game.apply` is the one
place that refuses one a payer cannot cover (unless the game allows negative
balances), with the shortfall the keypad shows ("Bob short 890K").
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from banker.errors import InsufficientFunds
from banker.fold.game import apply, replay
from banker.journal.records import BANK, Card, Enrolment, GameSettings, NewGame, Posting, Transaction
from banker.rules import Offer, bankrupt, buy, rent, trade
from banker.fold.undo import reversal
from cards import load_edition

EDITIONS = {"us": load_edition("us")}
ALICE, BOB = 1, 2
K, M = 1_000, 1_000_000


def new_game(**settings):
    game = apply(replay([], editions=EDITIONS), NewGame(1, GameSettings(**settings)))
    for name in ("Alice", "Bob"):
        opening = Transaction("opening", (Posting(BANK, game.next_card, 15 * M, "opening"),), f"{name} joins")
        game = apply(game, Enrolment(Card(game.next_card, f"0{game.next_card}", name), game.numbered(opening)))
    return game


def pay(game, payer, payee, amount, kind="transfer"):
    return game.numbered(Transaction(kind, (Posting(payer, payee, amount, kind),), "paid"))


def play(game, rule, **details):
    return apply(game, game.numbered(rule(game, **details).to_transaction()))


def test_a_payment_the_payer_cannot_cover_is_refused_with_the_shortfall_and_nothing_changes():
    game = new_game()
    with pytest.raises(InsufficientFunds, match="^Bob short 890K$") as refusal:
        apply(game, pay(game, BOB, ALICE, 15_890 * K))
    assert refusal.value.shortfall == 890 * K
    assert dict(game.balances) == {ALICE: 15 * M, BOB: 15 * M}
    assert apply(game, pay(game, BOB, ALICE, 15 * M)).balance(BOB) == 0


def test_money_received_in_the_same_transaction_counts():
    game = play(new_game(), buy, buyer=ALICE, slug="park-place")
    game = apply(game, pay(game, ALICE, BOB, 11_500 * K))  # Alice: 0
    sold = play(game, trade, first=ALICE, second=BOB, first_gives=Offer(deeds=("park-place",)),
                second_gives=Offer(cash=3 * M))
    assert sold.balance(ALICE) == 3 * M
    both_ways = game.numbered(Transaction("trade", (Posting(ALICE, BOB, 1 * M, "trade"),
                                                    Posting(BOB, ALICE, 1 * M, "trade")), "swap"))
    assert apply(game, both_ways).balance(ALICE) == 0  # net nothing: not short, though she paid first


def test_a_rule_returns_its_deal_and_the_fold_refuses_it():
    game = play(new_game(), buy, buyer=ALICE, slug="boardwalk")
    game = play(game, buy, buyer=ALICE, slug="park-place")
    game = apply(game, pay(game, BOB, ALICE, 14_500 * K))  # Bob: 500K
    deal = rent(game, payer=BOB, slug="boardwalk")  # 1M: the group is owned
    assert deal.net(BOB) == -1 * M
    with pytest.raises(InsufficientFunds, match="^Bob short 500K$") as refusal:
        apply(game, game.numbered(deal.to_transaction()))
    assert refusal.value.shortfall == 500 * K


def test_an_undo_is_judged_like_any_transaction():
    game = new_game()
    game = apply(game, pay(game, BOB, ALICE, 10 * M))  # Alice 25M, Bob 5M
    transfer = game.last
    game = apply(game, pay(game, ALICE, BANK, 20 * M, "pay"))  # Alice 5M
    undo = reversal(game, transfer)  # built without a funds check
    with pytest.raises(InsufficientFunds, match="^Alice short 5M$") as refusal:
        apply(game, undo)
    assert refusal.value.shortfall == 5 * M


def test_negative_balances_when_the_game_allows_them():
    game = new_game(allow_negative=True)
    assert apply(game, pay(game, BOB, ALICE, 16 * M)).balance(BOB) == -1 * M


def test_a_bankruptcy_needs_no_exemption_the_debtor_hands_over_only_what_they_have():
    game = play(new_game(), buy, buyer=BOB, slug="boardwalk")
    to_bank = play(game, bankrupt, debtor=BOB, creditor=BANK)
    assert to_bank.balance(BOB) == 0 and to_bank.estate.owner("boardwalk") is None
    to_alice = play(game, bankrupt, debtor=BOB, creditor=ALICE)
    assert to_alice.balance(BOB) == 0 and to_alice.balance(ALICE) == 26 * M


def test_the_fold_is_the_only_module_of_the_core_that_refuses_for_funds():
    core = Path(__file__).resolve().parents[2] / "banker"
    raisers = []
    for path in sorted(core.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None and "InsufficientFunds" in ast.unparse(node.exc):
                raisers.append(path.relative_to(core).as_posix())
    assert raisers == ["fold/game.py"]

