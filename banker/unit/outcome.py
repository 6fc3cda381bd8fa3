"""What one event led to, as data: the step's answer (:func:`banker.unit.step.step`) that the shell carries out.

The step builds it, the voice (:mod:`banker.unit.voice`) reads it to say
what happened, and the shell (``runtime/shell.py``) writes its record, carries
out its effects and draws its panel; none of them needs the others for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.fold.authority import Grant
from banker.fold.game import Game
from banker.journal.records import Record
from banker.unit.events import Effect
from banker.unit.panel import Panel
from banker.unit.screen import Screen


@dataclass(frozen=True)
class Outcome:
    """What one event led to: the next panel, the effects to carry out, at most one record to write, and the
    banker's PIN offered with it (or alone, to be checked before the panel goes on) to the write path."""

    panel: Panel
    effects: tuple[Effect, ...] = ()
    record: Record | None = None
    grant: Grant | None = None
    #: The record as the step folded it (the game it was folded on, the game it led to), for the ledger to keep.
    folded: tuple[Game, Game] | None = None
    #: The screen of ``panel`` over the game the step was given, when the step drew it already (a refusal the
    #: voice reads out; only on an outcome with no record): the shell draws this one rather than drawing it again.
    shown: Screen | None = None
