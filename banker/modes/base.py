"""What every mode is made of: the read-only context it decides in, and the reply it returns.

A mode (the FN menu, a deed, the PIN, the undo prompt, ...) is a frozen value.
Given a key or a change of cards it returns a :class:`Reply`: the next mode,
a message, a tone, at most one record to write. It calls nothing and
changes nothing; :func:`banker.step.step` turns the reply into the next
panel and effects. A reply that writes a record is built by
:meth:`Ctx.commit`, which checks the record against the game
(:func:`banker.game.apply`) and builds the success screen from the game
the record leads to, so a screen never reports what would not fit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .. import views
from ..authority import Grant
from ..entry import AmountEntry
from ..errors import InsufficientFunds, Refused
from ..game import Game, apply
from ..panel import Panel
from ..records import Card, Record
from ..screen import Screen


class _Keep:
    """The reply leaves this part of the panel as it is."""

    def __repr__(self) -> str:
        return "KEEP"


class _Menu:
    """The reply opens the FN menu (the menu is the one router; flows never import it)."""

    def __repr__(self) -> str:
        return "MENU"


KEEP: Any = _Keep()
MENU: Any = _Menu()


@dataclass(frozen=True)
class Reply:
    """What a mode decided. ``mode``: the next mode (None ends the flow, KEEP stays, MENU opens the FN menu);
    ``message``: a transient screen; ``entry``: the unit's amount entry (cleared unless KEEP); ``tone``;
    ``record``: at most one record to write, with ``after`` the game it leads to; ``panel``: other panel
    fields to set; ``effects``: more effects for the shell to carry out (a new token for the table page);
    ``grant``: the banker's PIN as typed, offered with ``record`` (or alone, to be checked) to the write path."""

    mode: Any = KEEP
    message: Screen | None = None
    entry: Any = AmountEntry()
    tone: str | None = "key"
    record: Record | None = None
    after: Game | None = None
    panel: Mapping[str, object] = field(default_factory=dict)
    effects: tuple = ()
    grant: Grant | None = None


Shown = Callable[[Game], Screen]


@dataclass(frozen=True)
class Ctx:
    """The panel and the game a mode decides in (read-only); ``salt``: fresh bytes the event brought (a PIN's
    hash); ``wall``: the wall-clock time the key came at (a PIN lockout)."""

    panel: Panel
    game: Game
    salt: bytes = b""
    wall: float = 0.0

    # -- what is on the table ------------------------------------------------------------

    def card(self, uid: str | None) -> Card | None:
        return self.game.card_by_uid(uid)

    def cards_on_readers(self) -> tuple[Card | None, Card | None]:
        """The known player cards on the ``+`` and ``-`` readers."""
        return self.card(self.panel.left), self.card(self.panel.right)

    def unknown_uid(self) -> str | None:
        """The UID of a card on a reader that nobody enrolled, if any."""
        p = self.panel
        return next((uid for uid in (p.left, p.right) if uid is not None and self.card(uid) is None), None)

    # -- replies ---------------------------------------------------------------------------

    def keep(self, tone: str | None = "key", **panel: object) -> Reply:
        """Stay in the mode with the typed amount; just a tone."""
        return Reply(mode=KEEP, entry=KEEP, tone=tone, panel=panel)

    def enter(self, mode: object) -> Reply:
        """Start (or go on in) ``mode``: it owns the keys until it ends."""
        return Reply(mode=mode)

    def show(self, shown: Screen, tone: str = "key", *, mode: object = None) -> Reply:
        """Show ``shown`` until the next key or card; the flow ends unless ``mode`` is given."""
        return Reply(mode=mode, message=shown, tone=tone)

    def refuse(self, shown: Screen, *, keep_entry: bool = False, keep_mode: bool = False, mode: object = KEEP,
               **panel: object) -> Reply:
        """A refusal with the refusal tone; nothing is written. The flow ends unless ``keep_mode`` (or ``mode``)."""
        return Reply(mode=mode if keep_mode else None, message=shown, entry=KEEP if keep_entry else AmountEntry(), tone="refusal",
                     panel=panel)

    def commit(self, record: Record, shown: Shown, *, mode: object = None, refusal_mode: object = None,
               actor: Card | None = None, tone: str = "success", **panel: object) -> Reply:
        """Write ``record``: once committed show ``shown(game after)``. A record that does not fit is refused.

        ``mode`` is the mode after a success, ``refusal_mode`` after a refusal
        (KEEP stays); ``actor`` is the card whose shortfall a funds refusal names.
        """
        try:
            after = apply(self.game, record)
        except InsufficientFunds as exc:
            screen = (views.refused(str(exc)) if actor is None
                      else views.short_of_funds(actor, exc.shortfall, self.game.balance(actor.id)))
            return Reply(mode=refusal_mode, message=screen, tone="refusal")
        except Refused as exc:
            return Reply(mode=refusal_mode, message=views.refused(str(exc)), tone="refusal")
        return Reply(mode=mode, message=shown(after), tone=tone, record=record, after=after, panel=panel)


class Mode:
    """A flow that owns the keys until it ends. ``C`` cancels it unless a subclass says otherwise.

    Subclasses are frozen dataclasses: a mode that changes returns its next
    value (``dataclasses.replace``) in the reply.
    """

    def screen(self, ctx: Ctx) -> Screen:
        raise NotImplementedError

    def key(self, ctx: Ctx, key: str) -> Reply:
        raise NotImplementedError

    def cards_changed(self, ctx: Ctx) -> Reply:
        """A card came or went while the mode was active; by default the mode goes on, silently."""
        return ctx.keep(tone=None)

    def cancel(self, ctx: Ctx) -> Reply:
        return ctx.show(views.message("Cancelled", "Nothing changed"))


def card_moved(ctx: Ctx) -> Reply:
    """A flow for given cards ends when a card comes or goes: nothing is changed."""
    return ctx.refuse(views.cancelled("A card moved"))
