"""Every screen the unit can reach in a few moves, found by walking the pure core (``banker.unit.step``) breadth first.

From a start (a panel over a game), each move is what a player does: a key
pressed and released, a card laid on or taken off a reader, a few seconds
waited. A record a move asks for is folded as the ledger would fold it
(without the banker's PIN check: the screens are the same). Screens are
collected after every event, as the shell draws after every event; a state
(the panel but its clock, over the same game) seen before is neither
yielded nor walked again. An amount is typed two
characters deep at most (longer ones only add digits to the same screens).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, fields, is_dataclass, replace

from banker.unit.entry import AmountEntry
from banker.errors import Refused
from banker.unit.events import KEYS, CardPlaced, CardRemoved, CommitFailed, KeyDown, KeyUp, Tick
from banker.fold.game import Game, apply
from banker.unit.panel import Panel
from banker.journal.records import stamped
from banker.unit.step import screen, step

SALT = bytes(16)
#: Keys of an amount (and of a PIN): not pressed once two are typed.
TYPED_KEYS = frozenset("0123456789.")


@dataclass(frozen=True)
class Move:
    """One thing a player does: a key (``"M"``), a card laid (``("left", uid)``), one taken (``("left", None)``),
    or seconds waited (a float)."""

    what: object

    def events(self, t: float) -> list:
        what = self.what
        if isinstance(what, str):
            return [KeyDown(what, t, salt=SALT, wall=1e9), KeyUp(what, t + 0.1)]
        if isinstance(what, float):
            return [Tick(t + what)]
        reader, uid = what
        return [CardPlaced(reader, uid, t) if uid is not None else CardRemoved(reader, t)]


def moves(uids: tuple[str, ...]) -> tuple[Move, ...]:
    """Every key, each of ``uids`` laid on each reader, each reader cleared, and a wait of 4 s."""
    cards = tuple(Move((reader, uid)) for reader in ("left", "right") for uid in (*uids, None))
    return tuple(Move(key) for key in KEYS) + cards + (Move(4.0),)


def _typed(panel: Panel) -> int:
    """The longest amount being typed: in the panel's entry or in its mode's fields."""
    entries = [panel.entry]
    if is_dataclass(panel.mode):
        entries += [getattr(panel.mode, f.name) for f in fields(panel.mode)]
    return max((len(e.typed) for e in entries if isinstance(e, AmountEntry)), default=0)


def _event(panel: Panel, game: Game, event) -> tuple[Panel, Game]:
    outcome = step(panel, game, event)
    if outcome.record is None:
        return outcome.panel, game
    if outcome.folded is not None:
        return outcome.panel, outcome.folded[1]
    try:
        return outcome.panel, apply(game, stamped(outcome.record, event.t))
    except Refused as exc:
        return step(outcome.panel, game, CommitFailed(str(exc), event.t)).panel, game


def _seen(panel: Panel, game: Game) -> tuple:
    """What tells two states apart: the panel but its times, its mode by value (a game in it by identity)."""
    return replace(panel, now=0.0, last_activity=0.0, c_down_at=None, mode=None), _value(panel.mode), id(game)


def _value(thing: object) -> object:
    try:
        hash(thing)
        return thing
    except TypeError:
        if is_dataclass(thing):
            return type(thing), tuple(_value(getattr(thing, f.name)) for f in fields(thing))
        return id(thing)


def walk(panel: Panel, game: Game, uids: tuple[str, ...], depth: int, most: int = 20000) -> Iterator[tuple[Panel, Game]]:
    """Every (panel, game) reached from ``panel`` over ``game`` in ``depth`` moves or fewer (``most`` at most),
    including those between a key's press and its release."""
    keep = [game]  # the games walked stay alive: their ids tell them apart
    seen = {_seen(panel, game)}
    queue = deque([(panel, game, panel.now, 0)])
    yield panel, game
    options = moves(uids)
    while queue and len(seen) < most:
        panel, game, t, done = queue.popleft()
        if done == depth:
            continue
        long = _typed(panel) >= 2
        for move in options:
            if long and move.what in TYPED_KEYS:
                continue
            now, after, at = panel, game, t + 1.0
            added = set()
            for event in move.events(at):
                now, after = _event(now, after, event)
                key = _seen(now, after)
                if key not in seen:
                    seen.add(key)
                    added.add(key)
                    yield now, after
            if after is not game:
                keep.append(after)
            if key in added:
                queue.append((now, after, at + (move.what if isinstance(move.what, float) else 0.1), done + 1))


def screens(states, tr) -> Iterator:
    """The screen of each state in the language of ``tr``."""
    for panel, game in states:
        yield screen(panel, game, tr)
