"""The one shell: events in, the pure step, the record written first, then tones and the frame; and the run loop.

For each event: :func:`banker.unit.step.step`; if the outcome has a record,
:meth:`runtime.ledger.Ledger.commit` writes it (durable) and folds it into
the game; if the write fails the core is stepped again with
:class:`~banker.unit.events.CommitFailed` and shows NOT SAVED, nothing changed.
Only then are the effects carried out and the display drawn, and it is
drawn only when the panel or the game changed. This is the one place where
"nothing is shown before it is committed" lives.

Drivers (keypad scanner, card readers, the serial test port, a window) call
:meth:`Shell.post` from any thread; the owning thread runs :meth:`Shell.run`
(or :meth:`Shell.pump` in tests and the simulator); the serial test port is
polled from that one loop (``poll``), and a script's ``wait`` on the live unit
is the same loop run ``until`` a time.
"""

from __future__ import annotations

import hashlib
import logging
import os
import queue
import threading
import time
from dataclasses import replace
from collections.abc import Callable
from typing import Protocol

from banker.fold.authority import NotAuthorised, PinLocked, WrongPin
from banker.errors import LedgerError, Refused
from banker.unit.events import (
    CommitFailed, Effect, Event, KeyDown, KeyRevealed, Log, PinRefused, PlayTone, RevealKey, Say, SetDisplayPower,
    Tick,
)
from banker.unit.panel import AUCTION_SECONDS, SLEEP_AFTER, Panel
from banker.ports import Buzzer, Display
from banker.fold.game import Game
from banker.unit.screen import Screen
from banker.unit.shown import screen as screen_of
from banker.unit.step import Outcome, step

from .collector import Collector
from .languages import language_for, translations_for
from .ledger import Ledger
from .sd_notify import ServiceNotifier
from .wall_clock import time_of_day

log = logging.getLogger("banker.shell")

#: Seconds between clock ticks in the run loop (holds, sleep, the display's retry).
TICK_SECONDS = 0.1
#: The longest the run loop leaves its pollers (the serial test port) unasked.
POLL_SECONDS = 0.005

Spy = Callable[[str, object], None]


class Voice(Protocol):
    """Where a :class:`~banker.unit.events.Say` goes (:class:`runtime.speaker.Speaker`): ``say`` returns at once."""

    def say(self, text: str, volume: int, lang: str) -> None: ...


def _lines(text: str, width: int = 21, most: int = 2) -> list[str]:
    """``text`` cut into at most ``most`` lines of ``width`` characters, at spaces where it can be."""
    import textwrap

    return textwrap.wrap(text, width)[:most]


class Shell:
    """Carries events into the core over ``ledger`` and its effects out to ``display`` and ``buzzer`` (either may be None).

    ``spy`` (``spy(kind, value)`` with kind "event", "record" or "effect")
    sees everything that passes, like pyserial's ``spy://``; ``salt`` gives
    the fresh bytes a typed PIN is hashed with; ``now`` is the clock's time at the start;
    ``on_effect`` carries out the effects the shell has no device for (a new
    token for the table page, :class:`~banker.unit.events.RenewWebToken`; a live auction's view for it,
    :class:`~banker.unit.events.LiveState`); ``auction_seconds`` an auction's countdown (``[auction] seconds``); ``wall_clock``
    the real time a PIN lockout runs on (a script's ``wait`` doesn't move it); ``time_of_day`` the local
    time of day while that clock is known right (:mod:`runtime.wall_clock`; a game's end at an hour needs it);
    ``voice`` speaks a :class:`~banker.unit.events.Say` (:class:`runtime.speaker.Speaker`), handed over after the frame.
    ``collector`` (the unit's :class:`runtime.collector.Collector`) freezes the start-up heap as :meth:`run` starts
    and runs the garbage collector's full collections in idle moments only.
    """

    def __init__(
        self,
        ledger: Ledger,
        *,
        display: Display | None = None,
        buzzer: Buzzer | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep_after: float = SLEEP_AFTER,
        auction_seconds: float = AUCTION_SECONDS,
        now: float = 0.0,
        spy: Spy | None = None,
        salt: Callable[[int], bytes] = os.urandom,
        on_effect: Callable[[Effect], None] | None = None,
        wall_clock: Callable[[], float] = time.time,
        time_of_day: Callable[[], float | None] = time_of_day,
        voice: Voice | None = None,
        language: str | None = None,
        collector: Collector | None = None,
    ) -> None:
        self.ledger = ledger
        self.display = display
        self.buzzer = buzzer
        self.clock = clock
        self.spy = spy
        self._salt = salt
        self.on_effect = on_effect
        self.wall_clock = wall_clock
        self.time_of_day = time_of_day
        self.voice = voice
        self.language = language  # the config's [unit] language, while the game has chosen none (FN 8)
        self.collector = collector  # the garbage collector's full runs kept to idle moments (runtime.collector)
        self.panel = Panel(last_activity=now, now=now, sleep_after=sleep_after, auction_seconds=auction_seconds,
                           speaks=voice is not None)
        self._events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self._drawn: tuple[Panel, object] | None = None
        self._shown: Screen | None = None
        self._backup_said: str | None = None  # the backup problem shown and logged, said once until it changes
        self.show()

    def reseed(self, text: str) -> None:
        """Draw the fresh bytes keys bring from ``text`` from here on, the same each run (a keypad script's
        ``seed``: a short game's deal repeats). Never on a unit at the table: a PIN's salt is then known too."""
        counter = iter(range(1 << 62))
        self._salt = lambda n: hashlib.sha256(f"{text}\n{next(counter)}".encode()).digest()[:n]

    # -- one event -----------------------------------------------------------------------

    def handle(self, event: Event) -> list[Effect]:
        """Step the core through ``event``, write its record first, then carry out its effects and draw."""
        if self.spy is not None:
            self.spy("event", event)
        if isinstance(event, KeyDown) and not event.salt:
            event = replace(event, salt=self._salt(16), wall=self.wall_clock(), day=self.time_of_day())
        stepped = self._step(event)
        if stepped is None:
            return []
        outcome, over = stepped
        self.panel = outcome.panel
        said = None
        for effect in outcome.effects:
            if isinstance(effect, Say):
                said = effect  # spoken after the frame: speech never delays a commit or a frame
            else:
                self._carry_out(effect)
        if isinstance(event, Tick) and getattr(self.display, "failed", False):
            self.display.retry()  # a bus error spoiled a frame: send it again
        self.show(drawn=(outcome.panel, over, outcome.shown))
        if said is not None:
            self._carry_out(said)
        if isinstance(event, Tick):
            self._upkeep()
        return list(outcome.effects)

    def _upkeep(self) -> None:
        """Snapshots, checkpoints, backups and the anchor, after a tick's frame: never between a key and its screen
        (the ledger is told how long nothing happened: the WAL's checkpoints and backups wait for quiet)."""
        try:
            note = getattr(self.ledger, "note_quiet", None)
            if note is not None:
                note(max(0.0, self.clock() - self.panel.last_activity))
            self.ledger.maintain()
        except (LedgerError, Refused) as exc:
            log.warning("ledger upkeep failed: %s", exc)
        except Exception:
            log.exception("ledger upkeep failed")
        self._say_backup_problem()
        if self.collector is not None:
            self.collector.idle(self.panel.last_activity)

    def _say_backup_problem(self) -> None:
        """A backup that failed, or a second backup folder gone (a USB stick unplugged), is said once, on the
        screen until the next key or card and in the log; play goes on. Its end is logged."""
        problem = self.ledger.backup_error
        if problem == self._backup_said:
            return
        if problem is None:
            log.info("backups are made again everywhere they go (%s resolved)", self._backup_said)
        else:
            log.warning("%s", problem)
            from banker.unit.views import backup_stick, message

            stick = getattr(self.ledger, "backup_stick", None)  # its cause, as data (store.backup_schedule)
            shown = (backup_stick(stick.cause) if stick is not None and stick.detail == problem
                     else ("Backup failed", *_lines(problem.removeprefix("backup failed: "))))
            self.panel = replace(self.panel, message=message(*shown, error=True))
            self.show()
        self._backup_said = problem

    def _tr(self, game):
        """The catalog ``game`` is shown and spoken in (its ``FN 8`` choice, else the config's; each loaded once)."""
        return translations_for(language_for(game, self.language))

    def _step(self, event: Event) -> tuple[Outcome, Game] | None:
        """The outcome of ``event`` once its record is written (or stepped again, refused), and the game it was
        stepped over; None when the core failed on it."""
        game = self.ledger.game()
        try:
            outcome = step(self.panel, game, event, self._tr(game))
            if outcome.record is None and outcome.grant is None:
                return outcome, game
            try:
                if outcome.record is None:
                    self.ledger.authorise(outcome.grant)  # a PIN checked alone, before the flow goes on
                    return outcome, game
                stored = self.ledger.commit(outcome.record, outcome.grant, folded=outcome.folded)
            except NotAuthorised as exc:
                locked = exc.seconds if isinstance(exc, PinLocked) else 0
                why = "locked" if locked else "wrong" if isinstance(exc, WrongPin) else "needed"
                after = self.ledger.game()
                return step(outcome.panel, after, PinRefused(why, locked, event.t), self._tr(after)), after
            except (LedgerError, Refused) as exc:
                return step(outcome.panel, game, CommitFailed(str(exc), event.t), self._tr(game)), game
            if self.spy is not None:
                self.spy("record", stored)
            return outcome, game
        except Exception:  # a programming error: logged, the event dropped, nothing changed
            log.exception("the unit failed on %r", event)
            return None

    def _carry_out(self, effect: Effect) -> None:
        if self.spy is not None:
            self.spy("effect", effect)
        if isinstance(effect, PlayTone):
            if self.buzzer is not None and effect.volume > 0:
                self.buzzer.play(effect.tone, effect.volume)
        elif isinstance(effect, SetDisplayPower):
            if self.display is not None:
                self.display.power(effect.on)
        elif isinstance(effect, Log):
            log.info("%s", effect.text)
        elif isinstance(effect, Say):
            if self.voice is not None:
                language = language_for(self.ledger.game(), self.language)  # the config's language counts too
                self.voice.say(effect.text, effect.volume, language)
        elif isinstance(effect, RevealKey):  # the PIN let it through: the key goes to the screen that shows it
            self.handle(KeyRevealed(self.ledger.key_text(), self.clock()))
        elif self.on_effect is not None:
            try:
                self.on_effect(effect)
            except Exception:  # the table page failing must not stop the unit
                log.exception("carrying out %r failed", effect)

    # -- the display ---------------------------------------------------------------------

    @property
    def screen(self) -> Screen:
        """What the display shows now."""
        game = self.ledger.game()
        return screen_of(self.panel, game, self._tr(game))

    def show(self, drawn: tuple[Panel, Game, Screen | None] | None = None) -> None:
        """Send the screen to the display, if the panel or the game changed and the frame with them. ``drawn``: a
        screen the core drew already, with the panel and the game it shows (a refusal the voice read out,
        :attr:`~banker.unit.outcome.Outcome.shown`): that one is sent, unless the panel or the game moved on since."""
        state = (self.panel, self.ledger.game())
        if self._drawn is not None and self._drawn[1] is state[1] and self._drawn[0] == state[0]:
            return
        self._drawn = state
        screen = self._frame(state, drawn)
        if self.display is not None and screen != self._shown and not screen.asleep:
            self.display.show(screen)
        self._shown = screen

    def _frame(self, state: tuple[Panel, Game], drawn: tuple[Panel, Game, Screen | None] | None) -> Screen:
        """The screen of ``state``: the one the core drew already if it is of this very panel and game, else drawn."""
        if drawn is not None and drawn[2] is not None and drawn[0] is state[0] and drawn[1] is state[1]:
            return drawn[2]
        return screen_of(*state, self._tr(state[1]))

    # -- the run loop --------------------------------------------------------------------

    def post(self, event: Event) -> None:
        """Queue ``event`` for the owning thread (safe from any thread)."""
        self._events.put(event)

    def pump(self) -> int:
        """Step through every queued event now; return how many there were."""
        count = 0
        while True:
            try:
                event = self._events.get_nowait()
            except queue.Empty:
                return count
            self.handle(event)
            count += 1

    def run(self, stop: threading.Event | None = None, tick: float = TICK_SECONDS, *, until: float | None = None,
            poll: tuple[Callable[[], object], ...] = (), sleep: Callable[[float], None] | None = None,
            service: ServiceNotifier | None = None) -> None:
        """The one run loop: own the unit until ``stop`` is set (or the clock reaches ``until``).

        Events are stepped as they come and a clock tick comes every ``tick``
        seconds. Each ``poll`` (the serial test port's :meth:`poll`) is called
        at least every :data:`POLL_SECONDS`. ``sleep`` (a test's manual clock)
        passes the time between instead of waiting on the queue; ``until``
        (a script's ``wait`` on the live unit) ends with a tick at that time.
        ``service`` (``banker run`` under systemd, :mod:`runtime.sd_notify`) is told READY=1 as the loop
        starts (the devices open, the first frame drawn), fed WATCHDOG=1 from each turn of this loop (a
        loop that hangs stops feeding it) and told STOPPING=1 when it ends.
        """
        if self.collector is not None:
            self.collector.start()  # the first frame is drawn: the start-up heap frozen before the first key
        if service is not None:
            service.ready()
        try:
            self._loop(stop, tick, until, poll, sleep, service)
        finally:
            if service is not None:
                service.stopping()

    def _loop(self, stop, tick, until, poll, sleep, service) -> None:
        next_tick = self.clock()
        while stop is None or not stop.is_set():
            if service is not None:
                service.alive()
            for each in poll:
                each()
            now = self.clock()
            if until is not None and now >= until:
                self.pump()
                self.handle(Tick(now))
                return
            timeout = max(0.0, min(next_tick, until if until is not None else next_tick) - now)
            if poll:
                timeout = min(timeout, POLL_SECONDS)
            if sleep is not None:
                self.pump()
                sleep(timeout)
            else:
                try:
                    self.handle(self._events.get(timeout=timeout))
                except queue.Empty:
                    pass
            if self.clock() >= next_tick:
                self.handle(Tick(self.clock()))
                next_tick = max(next_tick + tick, self.clock()) if sleep is not None else next_tick + tick
