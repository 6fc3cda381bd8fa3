"""The deal that starts a short or time-limit game: the bank's title deeds shuffled, two dealt to each player, each
paid at its printed price.

The official short game starts so ("the Banker shuffles the Title Deed cards
... and deals two to each player; players pay the Bank the printed price"),
and so does the official time-limit game (with the standard hotels: only the
short game's hotels need 3 houses; rules.md, "Shorter games").
The core draws no random number: the shuffle is decided by ``shuffle``,
fresh bytes that came with the event that started the game (the key's, on
the unit), each draw a SHA-256 of them and a counter, so the same bytes
always deal the same deeds (a keypad script's ``seed`` makes the deal
reproducible).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from banker.text.i18n import _
from banker.errors import Refused
from banker.journal.records import BANK, GameSettings
from banker.rules.deal import Deal, pay
from banker.rules.estate import owner_change
from banker.rules.position import Position

#: Deeds dealt to each player.
EACH = 2
#: The fewest random bytes a deal is shuffled with.
MIN_SHUFFLE = 16


def deals_deeds(settings: GameSettings) -> bool:
    """Whether a game with ``settings`` starts with the deal: a short game, or a time-limit game."""
    return settings.is_short_game or settings.time_limit is not None


def shuffled(items: Sequence, shuffle: bytes) -> list:
    """``items`` in the order a Fisher-Yates shuffle driven by ``shuffle`` gives (a draw's bias below 2^-56)."""
    if len(shuffle) < MIN_SHUFFLE:
        raise ValueError(f"a shuffle needs {MIN_SHUFFLE} random bytes, not {len(shuffle)}")
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        draw = int.from_bytes(hashlib.sha256(shuffle + i.to_bytes(4, "big")).digest()[:8], "big")
        j = draw % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def deal_deeds(game: Position, *, players: Sequence[int], shuffle: bytes) -> Deal:
    """Deal two of the bank's deeds to each of ``players`` in turn (as cards are dealt), each at its printed price."""
    unsold = [d for d in game.edition.deeds if game.estate.owner(d.slug) is BANK]
    if len(unsold) < EACH * len(players):
        raise Refused(_("{deeds} deeds can't deal {each} to each of {players} players", deeds=len(unsold), each=EACH,
                        players=len(players)))
    order = shuffled(unsold, shuffle)
    postings, changes = [], []
    for turn, deed in enumerate(order[:EACH * len(players)]):
        player = players[turn % len(players)]
        postings += pay(player, BANK, deed.price, "deal")
        changes.append(owner_change(game.estate, deed.slug, player))
    return Deal(tuple(postings), tuple(changes), _("Dealt {n} deeds", n=EACH * len(players)), "deal")
