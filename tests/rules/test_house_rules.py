"""The Free Parking jackpot and the short game's deal: every money movement one record, conserved, undoable, audited."""

from __future__ import annotations

from dataclasses import replace

import pytest

from banker.fold.acts import new_game
from banker.audit.checks import audit_records
from banker.errors import Refused
from banker.fold.game import apply, replay
from banker.journal.records import BANK, POT, GameSettings, Posting, Transaction
from banker.rules import income_tax, jail_fine, luxury_tax
from banker.rules.jackpot import pay_pot, take_pot
from banker.rules.short_deal import shuffled
from cards import load_edition

EDITIONS = {"us": load_edition("us")}
SHUFFLE = bytes(range(16))


def played(settings: GameSettings, *names: str, shuffle: bytes = SHUFFLE):
    """A ledger's records: players enrolled, then a game with ``settings``; and the game they fold to."""
    from banker.fold.acts import enrolment

    game, records = replay([], editions=EDITIONS), []
    for record in [new_game(game, GameSettings())]:
        records.append(record)
        game = apply(game, record)
    for i, name in enumerate(names):
        record = enrolment(game, name, f"A{i}")
        records.append(record)
        game = apply(game, record)
    record = new_game(game, settings, shuffle=shuffle)
    records.append(record)
    return records, apply(game, record)


def commit(records, game, tx):
    tx = game.numbered(tx)
    records.append(tx)
    return apply(game, tx)


def test_taxes_and_the_fine_go_into_the_pot_and_whoever_lands_there_takes_it():
    records, game = played(GameSettings(jackpot=500_000), "Alice", "Bob")
    assert game.pot == 500_000  # the seed, paid in by the bank as the game opens
    for rule in (income_tax, luxury_tax, jail_fine):
        game = commit(records, game, rule(game, player=1).to_transaction())
    assert game.pot == 500_000 + 2_000_000 + 1_000_000 + 500_000 and game.balance(1) == 11_500_000
    game = commit(records, game, pay_pot(game, player=2, amount=1_000_000).to_transaction())
    game = commit(records, game, take_pot(game, player=2).to_transaction())
    assert game.balance(2) == 15_000_000 - 1_000_000 + 5_000_000 and game.pot == 500_000  # seeded again
    audit = audit_records(enumerate(records, 1), editions=EDITIONS)
    assert audit.ok, audit.problems
    money = audit.games[game.id]
    assert money.held == money.issued - money.returned and money.players[POT] == 500_000  # conserved, pot and all


def test_taking_the_pot_is_undone_by_its_reversing_entry():
    records, game = played(GameSettings(jackpot=0), "Alice", "Bob")
    assert game.pot == 0 and not any(tx.kind == "pot-seed" for tx in records[-1].openings)  # nothing to seed
    with pytest.raises(Refused, match="empty"):
        take_pot(game, player=1)
    game = commit(records, game, income_tax(game, player=1).to_transaction())
    taken = take_pot(game, player=2).to_transaction()
    game = commit(records, game, taken)
    last = game.last
    undo = Transaction("undo", tuple(Posting(p.payee, p.payer, p.amount, p.kind) for p in last.postings),
                       f"Undo #{last.id}", reverses=last.id)
    game = commit(records, game, undo)
    assert game.pot == 2_000_000 and game.balance(2) == 15_000_000


def test_a_game_without_the_house_rule_has_no_pot_and_refuses_one():
    records, game = played(GameSettings(), "Alice")
    assert game.pot is None
    assert income_tax(game, player=1).postings[0].payee is BANK  # the official rules: the bank takes taxes
    with pytest.raises(Refused, match="no Free Parking pot"):
        pay_pot(game, player=1, amount=1)
    with pytest.raises(Refused, match="no Free Parking pot"):
        apply(game, game.numbered(Transaction("to-pot", (Posting(1, POT, 1_000, "to-pot"),))))
    assert game.name_of(POT) == "Free Parking"


def test_a_pot_can_not_go_below_zero():
    records, game = played(GameSettings(jackpot=100_000), "Alice")
    with pytest.raises(Refused, match="Free Parking short"):
        apply(game, game.numbered(Transaction("pot", (Posting(POT, 1, 200_000, "pot"),))))


def test_the_short_games_deal_gives_two_deeds_each_at_their_printed_prices():
    records, game = played(GameSettings(houses_for_hotel=3), "Alice", "Bob", "Cleo")
    deal = records[-1].openings[-1]
    assert deal.kind == "deal" and game.last == deal  # one entry, the game's last: the undo key takes it back
    for card in game.cards:
        deeds = game.estate.deeds_of(card.id)
        assert len(deeds) == 2
        assert game.balance(card.id) == 15_000_000 - sum(game.edition.deed(s).price for s in deeds)
    assert audit_records(enumerate(records, 1), editions=EDITIONS).ok


def test_the_same_bytes_deal_the_same_deeds_and_other_bytes_others():
    def dealt(shuffle):
        _records, game = played(GameSettings(houses_for_hotel=3), "Alice", "Bob", shuffle=shuffle)
        return {c.name: game.estate.deeds_of(c.id) for c in game.cards}

    assert dealt(SHUFFLE) == dealt(SHUFFLE)
    assert len({tuple(sorted(dealt(bytes([i]) * 16).items())) for i in range(8)}) > 1


def test_the_shuffle_is_fair_enough_that_every_deed_comes_first():
    deeds = list(EDITIONS["us"].deeds)
    firsts = {shuffled(deeds, i.to_bytes(16, "big"))[0].slug for i in range(2_000)}
    assert firsts == {d.slug for d in deeds}


def test_a_short_game_is_not_started_without_random_bytes():
    with pytest.raises(Refused, match="random bytes"):
        played(GameSettings(houses_for_hotel=3), "Alice", shuffle=b"")


@pytest.mark.parametrize("tamper, problem", [
    (lambda tx: replace(tx, postings=(replace(tx.postings[0], amount=tx.postings[0].amount - 100_000),)
                        + tx.postings[1:]), "printed prices"),
    (lambda tx: replace(tx, kind="opening"), "start balance"),
])
def test_the_audit_names_a_deal_not_at_the_printed_prices(tamper, problem):
    records, game = played(GameSettings(houses_for_hotel=3), "Alice", "Bob")
    start = records[-1]
    records[-1] = replace(start, openings=start.openings[:-1] + (tamper(start.openings[-1]),))
    audit = audit_records(enumerate(records, 1), editions=EDITIONS)
    assert any(problem in p.message for p in audit.problems), audit.problems


def test_the_audit_names_a_pot_seeded_with_other_than_the_games_seed():
    records, game = played(GameSettings(jackpot=500_000), "Alice")
    start = records[-1]
    seed = start.openings[-1]
    records[-1] = replace(start, openings=start.openings[:-1] + (
        replace(seed, postings=(replace(seed.postings[0], amount=5_000_000),)),))
    audit = audit_records(enumerate(records, 1), editions=EDITIONS)
    assert any("seeds the Free Parking pot" in p.message for p in audit.problems), audit.problems


def test_on_the_keypad_the_deal_is_undone_by_the_undo_key_and_holding_c_deals_again(table):
    table.shell.reseed("keypad")
    table.type("FN GO 3 M")
    game = table.ledger.game()
    first = {c.name: game.estate.deeds_of(c.id) for c in game.cards}
    assert all(len(deeds) == 2 for deeds in first.values())
    table.type("FN C M")  # the deal was the game's last entry: undone whole
    game = table.ledger.game()
    assert all(not game.estate.deeds_of(c.id) and game.balance(c.id) == 15_000_000 for c in game.cards)
    table.hold("C", 3)  # a new short game: dealt with the C key's own fresh bytes
    game = table.ledger.game()
    again = {c.name: game.estate.deeds_of(c.id) for c in game.cards}
    assert game.is_short_game and all(len(deeds) == 2 for deeds in again.values()) and again != first


def test_on_the_keypad_the_pot_is_shown_and_taken(table):
    table.type("FN GO 1 4 1 M M")
    table.press("C")
    assert "Pot 1M" in table.shown
    table.insert("right", "Alice")
    table.type("FN GO")
    assert "6 To pot" in table.shown
    table.type("6 2 M")
    table.remove("right")
    table.insert("left", "Bob")
    table.type("FN GO")
    assert "6 Take pot" in table.shown
    table.press("6")
    assert table.screen_lines()[:2] == ["Bob +3M", "18M"] and table.ledger.game().pot == 1_000_000
