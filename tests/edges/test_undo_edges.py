"""Undo at its edges: what may be undone, what the screen says it undoes, and a build undone out of turn."""

from dataclasses import replace

import pytest

from banker.errors import Refused
from banker.fold.undo import described, last_undoable, reversal, undo_last
from banker.journal.records import BANK, Posting, Transaction
from banker.rules import build
from tests.rules.test_rules_buildings import with_buildings
from tests.rules.table import Table

from tests.edges.support import ALICE, BOB, commit, game_with, payment


def test_nothing_to_undo_in_a_fresh_game_or_after_the_openings():
    game = game_with()
    assert last_undoable(game) is None
    with pytest.raises(Refused, match="nothing to undo"):
        undo_last(game)
    opened = commit(game, game.numbered(Transaction("opening", (Posting(BANK, ALICE, 1, "opening"),))))
    assert last_undoable(opened) is None
    with pytest.raises(Refused, match="nothing to undo"):
        undo_last(opened)
    with pytest.raises(Refused, match="opening balances can't be undone"):
        reversal(opened, opened.last)


def test_the_last_payment_is_undone_by_its_mirror():
    game = commit(game_with(), payment(game_with(), 1_500_000))
    assert last_undoable(game) == game.last
    undo = undo_last(game)
    assert undo.postings == (Posting(BOB, ALICE, 1_500_000, "pay"),) and undo.reverses == 1 and undo.id == 2
    assert undo.memo == "Undo #1 " and undo.kind == "undo"
    after = commit(game, undo)
    assert last_undoable(after) is None
    with pytest.raises(Refused, match="already undone"):
        undo_last(after)
    with pytest.raises(Refused, match="#2 is an undo itself"):
        reversal(after, after.last)
    with pytest.raises(Refused, match="#1 is already undone"):
        reversal(after, game.last)


def test_a_transaction_of_another_game_cannot_be_undone():
    game = commit(game_with(), payment(game_with(), 1))
    with pytest.raises(Refused, match="#1 is in game 2, not the current game"):
        reversal(game, replace(game.last, game=2))


def test_an_undo_memo_is_cut_to_sixty_characters():
    game = game_with()
    game = commit(game, replace(payment(game, 1), memo="x" * 80))
    assert undo_last(game).memo == ("Undo #1 " + "x" * 80)[:60]


def test_the_screen_names_both_sides_of_one_payment_and_sums_several():
    game = commit(game_with(), payment(game_with(), 1_500_000))
    assert described(game, game.last) == ("Player 1 paid Player 2", "1.5M")
    several = Transaction("trade", (Posting(ALICE, BOB, 1_000_000, "pay"), Posting(BOB, ALICE, 50_000, "pay")),
                          "Trade")
    assert described(game, several) == ("Trade", "2 payments, 1.05M")
    nothing = Transaction("give", ())  # a deed handed over, no money
    assert described(game, nothing) == ("give", "no money moved")
    bank = Transaction("go", (Posting(BANK, ALICE, 2_000_000, "go"),))
    assert described(game, bank) == ("Bank paid Player 1", "2M")


def test_undoing_an_older_build_that_would_leave_the_group_uneven_is_refused():
    table = with_buildings(Table.new(players=(ALICE, BOB)).hand(ALICE, "park-place", "boardwalk"), ALICE,
                           park_place=1, boardwalk=1)
    game = table.as_game()
    first = game.numbered(table.deal(build, player=ALICE, slug="boardwalk").to_transaction())
    game = commit(game, first)  # boardwalk 2, park place 1
    second = game.numbered(Table(game.edition, game.estate, game.balances).deal(
        build, player=ALICE, slug="park-place").to_transaction())
    game = commit(game, second)  # both at 2
    assert reversal(game, second).reverses == 2
    game = commit(game, reversal(game, second))  # park place back to 1: boardwalk 2, still even
    third = game.numbered(Table(game.edition, game.estate, game.balances).deal(
        build, player=ALICE, slug="park-place").to_transaction())
    game = commit(game, third)  # both 2 again
    with pytest.raises(Refused, match="undoing it leaves dark-blue unevenly built"):
        reversal(commit(game, game.numbered(Table(game.edition, game.estate, game.balances).deal(
            build, player=ALICE, slug="park-place").to_transaction())), first)
