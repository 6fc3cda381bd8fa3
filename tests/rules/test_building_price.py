"""A building's price is the deed's, except at a bid in a real shortage: refused when made, named by the audit."""

from __future__ import annotations

from dataclasses import replace

import pytest

from banker.audit.checks import audit_records
from banker.errors import Refused
from banker.journal.records import GameSettings
from banker.rules import build, buy
from tests.rules.test_house_rules import EDITIONS, commit, played


def browns(*names: str):
    """Alice owns both browns; the bank holds all its houses and hotels."""
    records, game = played(GameSettings(), "Alice", *names)
    alice = game.card_by_id(game.cards[0].id).id
    for slug in ("mediterranean-avenue", "baltic-avenue"):
        game = commit(records, game, buy(game, buyer=alice, slug=slug).to_transaction())
    return records, game, alice


def test_a_bid_price_is_refused_when_the_bank_is_not_short():
    _records, game, alice = browns("Bob")
    with pytest.raises(Refused, match="One player can build"):
        build(game, player=alice, slug="mediterranean-avenue", price=1_000)
    deal = build(game, player=alice, slug="mediterranean-avenue")  # the deed's price still builds
    assert [p.amount for p in deal.postings] == [500_000]


def test_the_audit_names_a_forged_under_price_house_and_the_old_ledger_still_folds():
    records, game, alice = browns("Bob")
    honest = build(game, player=alice, slug="mediterranean-avenue").to_transaction()
    forged = replace(honest, postings=(replace(honest.postings[0], amount=1_000),))
    commit(records, game, forged)  # the fold opens a ledger written before the rule
    audit = audit_records(enumerate(records, 1), editions=EDITIONS)
    assert [p.message for p in audit.problems if "not short" in p.message] == [
        "builds a house on Mediterranean Avenue for 1K, not the deed's 500K, with the bank not short "
        "(One player can build)"]


def test_the_audit_says_nothing_of_a_house_at_the_deeds_price():
    records, game, alice = browns("Bob")
    commit(records, game, build(game, player=alice, slug="mediterranean-avenue").to_transaction())
    assert audit_records(enumerate(records, 1), editions=EDITIONS).problems == []
