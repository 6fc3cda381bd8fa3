"""Records of every kind, each estate change among them, built by playing a game: the codec's golden samples.

The records are built only through the core's builders (the rules, ``Game.numbered``,
``Game.checkpoint``, ``Game.snapshot``), so the same code builds equal records before
and after a change of how they are represented in memory. ``tests/fixtures/codec-golden.json``
holds their bodies as the codec of commit e592350 wrote them (``make_codec_golden.py``); records added since are
appended, each as the codec of the commit that added it wrote it.
"""

from __future__ import annotations

from dataclasses import replace

from banker.fold.acts import new_game
from banker.fold.game import apply, replay
from banker.journal.records import (BANK, Card, ChainStart, DeedTag, Enrolment, GameRestored, GameSettings, KeyAdopted,
                            NewGame, PinChange, PinFailure, Posting, Removal, Rename, Setting, TokenRenewal,
                            Transaction, JournalAccepted, KeyShown, PlayClock, RetiredChange)
from banker.rules import bankrupt, build, buy, draw_jail_card, mortgage, sell_building, trade, use_jail_card
from banker.rules import Offer, income_tax, lift_mortgage
from banker.rules.jackpot import take_pot
from banker.journal.worth_trail import WorthPoint, WorthTrail
from cards import load_edition

EDITIONS = {"us": load_edition("us")}


def golden_records() -> list:
    """One game played through every kind of record and every kind of estate change, times set."""
    game = replay([], editions=EDITIONS)
    records = []
    clock = iter(range(1_700_000_000, 1_700_100_000, 7))

    def add(record):
        nonlocal game
        record = _timed(record, float(next(clock)) + 0.25)
        game = apply(game, record)
        records.append(record)

    def play(rule, memo=None, retire=False, **details):
        deal = rule(game, **details)
        if not retire:  # a bankruptcy as releases before issue 20 wrote it: the player not marked retired
            deal = replace(deal, changes=tuple(c for c in deal.changes if not isinstance(c, RetiredChange)))
        add(game.numbered(deal.to_transaction(memo)))

    def opening(card_id, name, offset=0, verb="joins"):
        return game.numbered(Transaction("opening", (Posting(BANK, card_id, game.settings.start_balance, "opening"),),
                                         f"{name} {verb}"), offset)

    add(NewGame(1, GameSettings()))
    for uid, name in (("04A1B2C3", "Alice"), ("04D5E6F7", "Bob"), ("04123456", "Cléo")):
        add(Enrolment(Card(game.next_card, uid, name), opening(game.next_card, name)))
    for slug in ("mediterranean-avenue", "baltic-avenue"):
        play(buy, buyer=1, slug=slug)
    play(buy, buyer=2, slug="boardwalk", price=3_000_000)
    play(buy, buyer=2, slug="reading-railroad")
    play(build, player=1, slug="mediterranean-avenue")
    play(build, player=1, slug="baltic-avenue")
    play(sell_building, player=1, slug="baltic-avenue")
    play(mortgage, player=2, slug="reading-railroad")
    play(draw_jail_card, player=3)
    play(draw_jail_card, player=2)
    play(use_jail_card, player=3)
    play(trade, first=2, second=3, first_gives=Offer(deeds=("reading-railroad",), jail_cards=1),
         second_gives=Offer(cash=1_200_000))
    play(lift_mortgage, player=3, slug="reading-railroad")
    play(mortgage, player=3, slug="reading-railroad")
    add(game.numbered(Transaction("transfer", (Posting(2, 1, 2_000_000, "transfer"),), "Bob paid Alice")))
    last = game.last
    add(game.numbered(Transaction("undo", (Posting(1, 2, 2_000_000, "transfer"),), f"Undo #{last.id} Bob paid Alice",
                                  reverses=last.id)))
    add(DeedTag("DEED0039", "boardwalk"))
    add(Setting("volume", "3"))
    add(PinChange("00ff$abcd"))
    add(PinFailure("serial"))
    add(Rename(2, "Bobby"))
    add(game.snapshot())
    first = game.checkpoint()
    short = GameSettings(start_balance=20_000_000, houses_for_hotel=3, luxury_tax=750_000, allow_negative=True,
                         income_tax_choice=True, go_salary=2_500_000)
    add(NewGame(game.next_game, short, (replace(opening(1, "Alice", verb="starts"), game=game.next_game),
                                        replace(opening(2, "Bobby", 1, verb="starts"), game=game.next_game))))
    play(buy, buyer=1, slug="park-place")
    add(game.snapshot())
    add(GameRestored(first))
    play(bankrupt, "Bobby bankrupt to Bank", debtor=2, creditor=BANK)
    play(bankrupt, "Cléo bankrupt to Alice", debtor=3, creditor=1, lift_now=("reading-railroad",))
    add(Removal(3))
    add(game.snapshot())
    records.append(ChainStart("sha256-v2", "ab" * 32, 12))
    records.append(_timed(replay([], editions=EDITIONS).snapshot(), 1.0))
    records.append(_timed(TokenRenewal(), 2.0))  # a kind added after the codec was derived: its own commit's bytes
    records.append(_timed(JournalAccepted(8, "cd" * 32, 7, "entries after 7 are gone"), 3.0))
    records.append(_timed(KeyAdopted(9, "cd" * 32, "p1$00ff$abcd"), 4.0))
    records.append(_timed(KeyShown(), 5.0))
    trail = WorthTrail(game.id).added(WorthPoint(1, ((1, 15_000_000),))).added(
        WorthPoint(2, ((1, 14_000_000), (2, 1_000_000))))  # the worth trail a snapshot carries (issue 19)
    records.append(_timed(replace(game.snapshot(), worth=trail.stopped()), 6.0))
    # issue 21: a short game with the house rules and modes: its deal, the Free Parking pot, the play clock
    modes = GameSettings(houses_for_hotel=3, jackpot=500_000, time_limit=5_400, sums="ask")
    add(new_game(game, modes, shuffle=bytes(range(16))))
    play(income_tax, player=1)
    play(take_pot, player=2)
    add(PlayClock(game.id, 60.5))
    add(game.snapshot())
    # issue 20: a bankruptcy retires the player (a RetiredChange), as the checkpoint keeps it
    play(bankrupt, "Bobby bankrupt to Alice", retire=True, debtor=2, creditor=1)
    add(game.snapshot())
    return records


def _timed(record, time: float):
    """``record`` stamped as the store stamps it: its time, and that of the transactions it carries."""
    if isinstance(record, Enrolment):
        return replace(record, time=time, opening=replace(record.opening, time=time))
    if isinstance(record, NewGame):
        return replace(record, time=time, openings=tuple(replace(o, time=time) for o in record.openings))
    return replace(record, time=time)
