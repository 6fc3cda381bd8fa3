"""The fold's transaction path at its edges: the funds rule to the dollar, transaction ids out of order or replayed."""

import pytest

from banker.errors import InsufficientFunds, Refused
from banker.fold.undo import undo_last
from banker.journal.records import BANK, Posting, Transaction

from tests.edges.support import ALICE, BOB, commit, game_with, payment


def test_a_payment_of_the_whole_balance_leaves_zero():
    game = commit(game_with(alice=1_000), payment(game_with(alice=1_000), 1_000))
    assert (game.balance(ALICE), game.balance(BOB)) == (0, 15_001_000)


def test_a_payment_one_dollar_over_the_balance_is_refused_and_changes_nothing():
    game = game_with(alice=1_000)
    with pytest.raises(InsufficientFunds, match="Player 1 short 1$") as refusal:
        commit(game, payment(game, 1_001))
    assert refusal.value.shortfall == 1
    assert (game.balance(ALICE), game.transactions, game.next_tx) == (1_000, 0, 1)


def test_with_negative_balances_allowed_a_payer_may_go_below_zero():
    game = game_with(alice=1_000, allow_negative=True)
    assert commit(game, payment(game, 1_001)).balance(ALICE) == -1


def test_a_player_already_below_zero_may_still_receive_and_pay_a_net_gain():
    game = game_with(alice=-500)  # a balance below zero from before (a house rule since turned off)
    tx = game.numbered(Transaction("swap", (Posting(ALICE, BOB, 100, "pay"), Posting(BOB, ALICE, 300, "pay"))))
    assert commit(game, tx).balance(ALICE) == -300
    with pytest.raises(InsufficientFunds, match="Player 1 short 600"):
        commit(game, payment(game, 100))


def test_the_bank_pays_without_a_balance():
    game = game_with()
    tx = game.numbered(Transaction("salary", (Posting(BANK, ALICE, 2_000_000, "go"),)))
    after = commit(game, tx)
    assert after.balance(ALICE) == 17_000_000 and after.last == tx and after.transactions == 1


def test_the_next_id_is_accepted_and_every_id_after_counts_on_from_it():
    game = game_with()
    first = commit(game, payment(game, 1))
    assert (first.next_tx, first.transactions) == (2, 1)
    later = commit(first, payment(first, 1, id=7))  # ids may skip (a refused batch's), never go back
    assert (later.next_tx, later.last.id) == (8, 7)


def test_a_replayed_transaction_id_is_refused():
    game = game_with()
    tx = payment(game, 1_000)
    after = commit(game, tx)
    with pytest.raises(Refused, match=r"transaction #1 is out of order \(next is #2\)"):
        commit(after, tx)
    assert after.balance(ALICE) == 14_999_000


def test_an_out_of_order_or_unnumbered_transaction_is_refused():
    game = commit(game_with(), payment(game_with(), 1))
    with pytest.raises(Refused, match="out of order"):
        commit(game, payment(game, 1, id=0))
    with pytest.raises(Refused, match=r"transaction #None is out of order"):
        commit(game, payment(game, 1, id=None))


def test_a_transaction_of_another_game_or_before_any_game_is_refused():
    game = game_with()
    with pytest.raises(Refused, match="#1 is in game 2, not the current game 1"):
        commit(game, payment(game, 1, game=2))
    from dataclasses import replace
    with pytest.raises(Refused, match="no game has started"):
        commit(replace(game, id=0), payment(game, 1))


def test_an_undo_counts_once_and_its_target_cannot_be_undone_twice():
    game = commit(game_with(), payment(game_with(), 5_000))
    undo = undo_last(game)
    after = commit(game, undo)
    assert after.balance(ALICE) == 15_000_000 and after.undone == {1}
    again = after.numbered(Transaction("undo", undo.postings, reverses=1))
    with pytest.raises(Refused, match="#1 is already undone"):
        commit(after, again)
    with pytest.raises(Refused, match="already undone"):
        undo_last(after)


def test_a_player_below_zero_whose_transaction_nets_nothing_is_not_refused():
    game = game_with(alice=-500)
    tx = game.numbered(Transaction("swap", (Posting(ALICE, BOB, 100, "pay"), Posting(BOB, ALICE, 100, "pay"))))
    assert commit(game, tx).balance(ALICE) == -500


def test_only_a_bankruptcy_is_counted_as_one():
    game = game_with()
    after = commit(game, payment(game, 1))
    assert after.bankruptcies == frozenset() and after.undone == frozenset()
    broke = commit(after, after.numbered(Transaction("bankruptcy", (Posting(ALICE, BOB, 1, "pay"),))))
    assert broke.bankruptcies == {2}


def test_money_paid_moves_from_the_payer_to_the_payee_only():
    game = game_with(alice=1_000, bob=2_000)
    after = commit(game, payment(game, 300))
    assert dict(after.balances) == {ALICE: 700, BOB: 2_300}
    back = commit(after, payment(after, 300, payer=BOB, payee=ALICE))
    assert dict(back.balances) == {ALICE: 1_000, BOB: 2_000} and back.transactions == 2
