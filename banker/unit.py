"""The unit's behaviour: the Electronic Banking keypad and two card slots as a state machine.

One thread owns a :class:`Unit` and feeds it events (:mod:`banker.events`);
:meth:`Unit.handle` returns the effects for the shell to carry out, and
:attr:`Unit.screen` is what the display shows now. Money moves only through
the ledger port, and the screen says a transaction happened only after the
ledger has committed it; a failed commit shows "NOT SAVED" and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import flows, views
from .authority import LOCKOUT_SECONDS, MAX_TRIES, PIN_SETTING, hash_pin, pin_matches
from .entry import AmountEntry
from .errors import AmountError, InsufficientFunds, LedgerError, Refused
from .events import (
    CardPlaced,
    CardRemoved,
    Effect,
    Event,
    KeyDown,
    KeyUp,
    PlayTone,
    SetDisplayPower,
    Tick,
)
from .ledger import BANK, Card, Ledger, Posting, Transaction
from .modes import FnMenu, Mode, PinEntry
from .screen import Screen

#: Seconds ``C`` must be held (with no card on a reader) to start a new game.
NEW_GAME_HOLD = 2.0
#: Default seconds without a key or card before the screen sleeps.
SLEEP_AFTER = 60.0
VOLUME_KEY = "volume"


@dataclass(frozen=True)
class Panel:
    """The unit's own state between events (everything else is in the ledger)."""

    left: str | None = None  # UID on the + reader
    right: str | None = None  # UID on the - reader
    entry: AmountEntry = AmountEntry()
    message: Screen | None = None  # a transient screen, shown until the next key or card
    asleep: bool = False
    last_activity: float = 0.0
    c_down_at: float | None = None
    c_hold_done: bool = False
    swallow_key_up: str | None = None  # the key that woke the unit: its release is ignored
    mode: Mode | None = None  # a multi-key flow (FN menus, undo, PIN) that owns the keys
    deed_on: str | None = None  # the reader a deed's tag lies on (not a player's card)
    pin_failures: int = 0
    locked_until: float = 0.0
    now: float = 0.0


class Unit:
    """The banker unit over a ledger.

    ``sleep_after`` is the idle time (seconds) before the screen sleeps.
    """

    def __init__(self, ledger: Ledger, *, sleep_after: float = SLEEP_AFTER, now: float = 0.0) -> None:
        self.ledger = ledger
        self.sleep_after = sleep_after
        self.panel = Panel(last_activity=now)
        self.volume = self._stored_volume()

    def _stored_volume(self) -> int:
        stored = self.ledger.setting(VOLUME_KEY, "2")
        return int(stored) if stored in ("0", "1", "2", "3") else 2

    # -- the step ----------------------------------------------------------------------

    def handle(self, event: Event) -> list[Effect]:
        """Apply one event; return the effects (tones, display power) to carry out."""
        p = self.panel
        if isinstance(event, Tick):
            return self._tick(event.t)
        if isinstance(event, KeyUp):
            if p.swallow_key_up == event.key:
                self.panel = replace(p, swallow_key_up=None)
                return []
            return self._key_up(event)
        if p.asleep:
            return self._wake(event)
        self.panel = replace(p, last_activity=event.t, now=event.t)
        if isinstance(event, KeyDown):
            return self._key_down(event.key, event.t)
        if isinstance(event, CardPlaced):
            return self._card_placed(event)
        if isinstance(event, CardRemoved):
            return self._card_removed(event)
        raise TypeError(f"not an event: {event!r}")

    def _wake(self, event: Event) -> list[Effect]:
        """The first key or card after sleep only wakes the unit (a card is still noted as present or gone)."""
        p = replace(self.panel, asleep=False, last_activity=event.t, message=None)
        if isinstance(event, KeyDown):
            p = replace(p, swallow_key_up=event.key)
        elif isinstance(event, CardPlaced):
            if event.uid in self.ledger.deed_tags():
                p = replace(p, deed_on=event.reader)
            else:
                p = replace(p, **{event.reader: event.uid})
        elif isinstance(event, CardRemoved):
            if p.deed_on == event.reader:
                p = replace(p, deed_on=None)
            else:
                p = replace(p, **{event.reader: None})
        self.panel = p
        return [SetDisplayPower(True)]

    def _tick(self, t: float) -> list[Effect]:
        p = self.panel
        if p.c_down_at is not None and not p.c_hold_done and t - p.c_down_at >= NEW_GAME_HOLD:
            return self._c_held()
        if not p.asleep and t - p.last_activity >= self.sleep_after:
            self.panel = replace(p, asleep=True, entry=AmountEntry(), message=None, mode=None)
            return [SetDisplayPower(False)]
        return []

    def _key_up(self, event: KeyUp) -> list[Effect]:
        p = self.panel
        if event.key != "C" or p.c_down_at is None:
            return []
        effects: list[Effect] = []
        if not p.c_hold_done and event.t - p.c_down_at >= NEW_GAME_HOLD:
            effects = self._c_held()
        self.panel = replace(self.panel, c_down_at=None, c_hold_done=False)
        return effects

    # -- keys --------------------------------------------------------------------------

    def _key_down(self, key: str, t: float) -> list[Effect]:
        p = replace(self.panel, message=None)
        self.panel = p
        if p.mode is not None:
            if key == "C":
                self.panel = replace(p, c_down_at=t, c_hold_done=False)
                return p.mode.cancel(self)
            return p.mode.key(self, key)
        if key.isdigit() or key == ".":
            if key == "." and p.entry.empty and p.left is None and p.right is None:
                return self._step_volume()
            try:
                self.panel = replace(p, entry=p.entry.type(key))
            except AmountError as exc:
                return self.refuse(views.refused(str(exc)), keep_entry=True)
            return [self.tone("key")]
        if key in ("M", "K"):
            return self._finish_amount(key)
        if key == "C":
            self.panel = replace(p, entry=AmountEntry(), c_down_at=t, c_hold_done=False)
            return [self.tone("key")]
        if key == "GO":
            return self._pass_go()
        if key == "FN":
            return self._function()
        raise ValueError(f"not a key of the unit: {key!r}")

    def _step_volume(self) -> list[Effect]:
        self.volume = (self.volume + 1) % 4
        try:
            self.ledger.set_setting(VOLUME_KEY, str(self.volume))
        except LedgerError:
            pass  # the volume still changes for this session; only its memory failed
        self.panel = replace(self.panel, message=views.volume(self.volume))
        return [self.tone("volume")]

    def _c_held(self) -> list[Effect]:
        """``C`` held long enough: a new game, unless a card lies on a reader."""
        p = replace(self.panel, c_hold_done=True)
        self.panel = p
        if p.left is not None or p.right is not None:
            return self.refuse(views.message("New game?", "Take the cards", "off the readers", error=True))
        try:
            game = self.ledger.new_game()
        except LedgerError as exc:
            return self.refuse(views.not_saved(str(exc)))
        players = len(self.ledger.cards())
        self.panel = replace(self.panel, entry=AmountEntry(), message=views.new_game(game.id, game.settings.start_balance, players))
        return [self.tone("new-game")]

    # -- cards -------------------------------------------------------------------------

    def _card_placed(self, event: CardPlaced) -> list[Effect]:
        slug = self.ledger.deed_tags().get(event.uid)
        if slug is not None:
            self.panel = replace(self.panel, message=None, deed_on=event.reader)
            return flows.deed_tapped(self, slug)
        p = replace(self.panel, message=None, **{event.reader: event.uid})
        self.panel = p
        if p.mode is not None:
            return p.mode.cards_changed(self)
        if p.left is not None and p.left == p.right:
            return self.refuse(views.same_card(), keep_entry=True)
        if self.ledger_card(event.uid) is None:
            return self.refuse(views.unknown_card(event.uid), keep_entry=True)
        return [self.tone("key")]

    def _card_removed(self, event: CardRemoved) -> list[Effect]:
        p = self.panel
        if p.deed_on == event.reader:
            self.panel = replace(p, deed_on=None)
            return []
        if p.mode is not None:
            self.panel = replace(p, **{event.reader: None})
            return p.mode.cards_changed(self)
        was_there = getattr(p, event.reader) is not None
        p = replace(p, message=None, **{event.reader: None})
        self.panel = p
        if was_there and not p.entry.empty:
            self.panel = replace(p, entry=AmountEntry(), message=views.cancelled("Card taken away"))
            return [self.tone("refusal")]
        return []

    def ledger_card(self, uid: str | None) -> Card | None:
        if uid is None:
            return None
        return next((c for c in self.ledger.cards() if c.uid == uid), None)

    # -- transactions ------------------------------------------------------------------

    def _finish_amount(self, suffix: str) -> list[Effect]:
        p = self.panel
        try:
            amount = p.entry.finish(suffix)
        except AmountError as exc:
            return self.refuse(views.refused(str(exc)))
        if p.left is None and p.right is None:
            return self.refuse(views.refused("Insert a card first"), keep_entry=True)
        if p.left is not None and p.left == p.right:
            return self.refuse(views.same_card())
        payee, payer = self.ledger_card(p.left), self.ledger_card(p.right)
        for uid, card in ((p.left, payee), (p.right, payer)):
            if uid is not None and card is None:
                return self.refuse(views.unknown_card(uid))
        if payer is not None and payee is not None:
            kind, memo = "transfer", f"{payer.name} paid {payee.name}"
        elif payee is not None:
            kind, memo = "collect", "Bank paid"
        else:
            kind, memo = "pay", f"{payer.name} paid bank"
        return self._post(payer, payee, amount, kind, memo)

    def _pass_go(self) -> list[Effect]:
        p = self.panel
        if not p.entry.empty:
            return self.refuse(views.refused("GO: clear the", "amount first (C)"), keep_entry=True)
        payee = self.ledger_card(p.left)
        if p.left is None:
            return self.refuse(views.refused("GO pays the card", "on the + reader"))
        if payee is None:
            return self.refuse(views.unknown_card(p.left))
        if p.right is not None:
            return self.refuse(views.refused("GO: take the card", "off the - reader"))
        salary = self.ledger.game().settings.go_salary
        return self._post(None, payee, salary, "go", "Passed GO")

    def _post(self, payer: Card | None, payee: Card | None, amount: int, kind: str, memo: str) -> list[Effect]:
        """Check the payer's funds, commit, and only then show the new balances."""
        if payer is not None and not self.ledger.game().settings.allow_negative:
            balance = self.ledger.balance(payer.id)
            if balance < amount:
                return self.refuse(views.short_of_funds(payer, amount - balance, balance))
        posting = Posting(payer.id if payer else BANK, payee.id if payee else BANK, amount, kind)

        def shown() -> Screen:
            if payer is not None and payee is not None:
                return views.transferred(payer, self.ledger.balance(payer.id), payee, self.ledger.balance(payee.id), amount)
            if payee is not None:
                return views.received(payee, amount, self.ledger.balance(payee.id), memo)
            return views.paid(payer, amount, self.ledger.balance(payer.id))

        return self.commit(Transaction(kind, (posting,), memo), shown)

    def commit(self, tx: Transaction, shown) -> list[Effect]:
        """Post ``tx``; once committed show ``shown()`` with the success tone, else the refusal."""
        try:
            self.ledger.post(tx)
        except InsufficientFunds as exc:
            return self.refuse(views.refused(str(exc)))
        except Refused as exc:
            return self.refuse(views.refused(str(exc)))
        except LedgerError as exc:
            return self.refuse(views.not_saved(str(exc)))
        self.panel = replace(self.panel, entry=AmountEntry(), message=shown())
        return [self.tone("success")]

    # -- undo --------------------------------------------------------------------------

    def last_undoable(self) -> Transaction | None:
        """The game's last transaction if it can be undone from the keypad."""
        last = self.ledger.last_transaction()
        if last is None or last.kind == "opening" or last.reverses is not None:
            return None
        return last

    def undo_last(self) -> list[Effect]:
        """Post the reversing entry of the game's last transaction (``FN C``, ``M``)."""
        try:
            undo = self.ledger.undo()
        except Refused as exc:
            return self.refuse(views.refused(str(exc)))
        except LedgerError as exc:
            return self.refuse(views.not_saved(str(exc)))
        return self.show(views.message(f"Undone #{undo.reverses}", undo.memo[len(f"Undo #{undo.reverses} "):]), "success")

    # -- FN, enrolment and the banker's PIN ---------------------------------------------

    def _function(self) -> list[Effect]:
        """``FN``: enrol the unknown card lying alone on a reader, else the FN menu."""
        p = self.panel
        present = [uid for uid in (p.left, p.right) if uid is not None]
        unknown = [uid for uid in present if self.ledger_card(uid) is None]
        if len(present) == 1 and unknown:
            return self._with_authority(lambda: self._enrol_here(unknown[0]))
        if unknown:
            return self.refuse(views.refused("Enrol one card", "at a time"))
        return self.enter(FnMenu())

    def _with_authority(self, action) -> list[Effect]:
        """Run ``action`` now if no PIN is set, else after the banker's PIN is typed."""
        if not self.pin_is_set():
            return action()
        return self.enter(PinEntry("authorise", then=action))

    def _enrol_here(self, uid: str) -> list[Effect]:
        names = {c.name.casefold() for c in self.ledger.cards()}
        number = next(n for n in range(1, 100) if f"player {n}" not in names)
        try:
            card = self.ledger.enrol(f"Player {number}", uid)
        except Refused as exc:
            return self.refuse(views.refused(str(exc)))
        except LedgerError as exc:
            return self.refuse(views.not_saved(str(exc)))
        return self.show(views.enrolled(card, self.ledger.balance(card.id)), "success")

    def pin_is_set(self) -> bool:
        return self.ledger.setting(PIN_SETTING) is not None

    def check_pin(self, typed: str) -> None:
        """Raise AmountError (shown as a refusal) for a wrong PIN or while locked out."""
        p = self.panel
        if p.now < p.locked_until:
            raise AmountError(f"Locked {int(p.locked_until - p.now) + 1} s")
        stored = self.ledger.setting(PIN_SETTING)
        if stored is None or pin_matches(typed, stored):
            self.panel = replace(p, pin_failures=0)
            return
        failures = p.pin_failures + 1
        locked = p.now + LOCKOUT_SECONDS if failures >= MAX_TRIES else p.locked_until
        self.panel = replace(p, pin_failures=0 if failures >= MAX_TRIES else failures, locked_until=locked)
        raise AmountError("Wrong PIN")

    def set_pin(self, pin: str) -> list[Effect]:
        try:
            self.ledger.set_setting(PIN_SETTING, hash_pin(pin))
        except AmountError as exc:
            return self.refuse(views.refused(str(exc)))
        except LedgerError as exc:
            return self.refuse(views.not_saved(str(exc)))
        return self.show(views.message("Banker PIN set"), "success")

    # -- what modes call back ------------------------------------------------------------

    def enter(self, mode: Mode) -> list[Effect]:
        """Start a multi-key flow; it owns the keys until :meth:`leave`."""
        self.panel = replace(self.panel, mode=mode, message=None, entry=AmountEntry())
        return [self.tone("key")]

    def leave(self) -> None:
        self.panel = replace(self.panel, mode=None)

    def show(self, shown: Screen, tone: str = "key") -> list[Effect]:
        """Show ``shown`` until the next key or card, with ``tone``."""
        self.panel = replace(self.panel, message=shown, entry=AmountEntry())
        return [self.tone(tone)]

    def refuse(self, shown: Screen, *, keep_entry: bool = False, keep_mode: bool = False) -> list[Effect]:
        """Show a refusal with the refusal tone; nothing was posted."""
        p = self.panel
        self.panel = replace(p, message=shown, entry=p.entry if keep_entry else AmountEntry(),
                             mode=p.mode if keep_mode else None)
        return [self.tone("refusal")]

    def tone(self, tone) -> PlayTone:
        return PlayTone(tone, self.volume)

    def cards_on_readers(self) -> tuple[Card | None, Card | None]:
        """The known player cards on the ``+`` and ``-`` readers."""
        return self.ledger_card(self.panel.left), self.ledger_card(self.panel.right)

    # -- what the display shows ---------------------------------------------------------

    @property
    def screen(self) -> Screen:
        p = self.panel
        if p.asleep:
            return views.ASLEEP
        shown = p.message or (p.mode.screen(self) if p.mode is not None else self._live_screen())
        return views.with_status(shown, left=p.left is not None, right=p.right is not None, volume=self.volume)

    def _live_screen(self) -> Screen:
        p = self.panel
        entry = None if p.entry.empty else p.entry.shown()
        if p.left is not None and p.left == p.right:
            return views.same_card()
        payee, payer = self.ledger_card(p.left), self.ledger_card(p.right)
        for uid, card in ((p.left, payee), (p.right, payer)):
            if uid is not None and card is None:
                return views.unknown_card(uid)
        if payer and payee:
            return views.two_cards(payer, self.ledger.balance(payer.id), payee, self.ledger.balance(payee.id), entry)
        if payee:
            return views.one_card(payee, self.ledger.balance(payee.id), "left", entry)
        if payer:
            return views.one_card(payer, self.ledger.balance(payer.id), "right", entry)
        return views.idle(entry)
