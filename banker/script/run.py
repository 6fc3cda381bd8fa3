"""The one keypad-script driver: carry a parsed script's steps out on a backend and check its expectations.

A backend (:class:`Backend`) is what runs the steps: the one local driver
over the shell (``runtime.script_driver``: the core, the drivers on
simulated chips, the window, a live unit behind its serial port) or a unit
at the other end of a serial test port. :func:`run` is the same for all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from banker.fold.authority import NotAuthorised
from banker.errors import ScriptError
from banker.unit.events import READERS, CardPlaced, CardRemoved, Event, ReaderFault, ReaderRecovered
from banker.fold.game import fold_name
from banker.money import format_amount
from banker.script.syntax import (
    ACTIONS, Enrol, EnrolDeed, ExpectBalance, ExpectBank, ExpectHouses, ExpectMortgaged, ExpectOwner, ExpectScreen,
    ExpectPot, ExpectWorth, Hold, Insert, Line, Press, Remove, Seed, Stack, Step, Tap, Wait,
)
from banker.text.words import did_you_mean


class Backend(Protocol):
    """What runs a script: the core, the drivers on simulated chips, or a device."""

    def enrol(self, name: str, uid: str) -> None: ...  # the banker's act: NotAuthorised without the PIN
    def insert(self, reader: str, name: str) -> None: ...
    def stack(self, reader: str, name: str) -> None: ...  # another card on the reader: both in its field
    def remove(self, reader: str) -> None: ...  # every card off that reader
    def press(self, key: str) -> None: ...
    def hold(self, key: str, seconds: float) -> None: ...
    def wait(self, seconds: float) -> None: ...
    def balance(self, name: str) -> int | None: ...
    def balances(self) -> dict[str, int]: ...  # every player's balance, by name
    def screen_lines(self) -> list[str]: ...
    # title deeds and the rules
    def enrol_deed(self, slug: str, uid: str) -> None: ...  # the banker's act, as enrol
    def owner(self, slug: str) -> str: ...  # the owner's name, or "bank"
    def houses(self, slug: str) -> int: ...  # 0-4, 5 a hotel
    def mortgaged(self, slug: str) -> bool: ...
    def bank_buildings(self) -> tuple[int, int]: ...  # (houses, hotels) left in the bank
    def worth(self, name: str) -> int | None: ...  # total worth; None: no such player


class Hands:
    """The cards a script's hands hold on each reader, and the events the unit sees for each step.

    For backends that post events themselves (the core backend, the live
    unit behind the serial test port), they are what the card slots would
    post for the same cards: a second card makes the reader's answers
    collide (``ReaderFault(reader, "two-cards")``); taking them all away
    lets it read again (``ReaderRecovered``); laying one card on a reader
    that held two is both at once.

    Example::

        hands = Hands()
        hands.insert("left", "A1", 1.0)   # -> [CardPlaced("left", "A1", 1.0)]
        hands.stack("left", "B2", 2.0)    # -> [ReaderFault("left", "two-cards", 2.0)]
        hands.remove("left", 3.0)         # -> [ReaderRecovered("left", 3.0)]
    """

    def __init__(self) -> None:
        self.on: dict[str, list[str]] = {reader: [] for reader in READERS}

    def insert(self, reader: str, uid: str, t: float) -> list[Event]:
        events: list[Event] = [ReaderRecovered(reader, t)] if len(self.on[reader]) > 1 else []  # type: ignore[arg-type]
        self.on[reader] = [uid]
        return events + [CardPlaced(reader, uid, t)]  # type: ignore[arg-type]

    def stack(self, reader: str, uid: str, t: float) -> list[Event]:
        held = self.on[reader]
        if not held:
            return self.insert(reader, uid, t)
        if uid in held:
            raise ScriptError(0, f"card {uid} already lies on the {reader} reader: a card can't be stacked on itself")
        held.append(uid)
        return [ReaderFault(reader, "two-cards", t)] if len(held) == 2 else []  # type: ignore[arg-type]

    def remove(self, reader: str, t: float) -> list[Event]:
        held, self.on[reader] = self.on[reader], []
        if len(held) > 1:
            return [ReaderRecovered(reader, t)]  # type: ignore[arg-type]
        return [CardRemoved(reader, t)]  # type: ignore[arg-type]


@dataclass(frozen=True)
class Failure:
    """The first expectation that did not hold."""

    line: int
    expected: str
    actual: str

    def __str__(self) -> str:
        return f"line {self.line}: expected {self.expected}, got {self.actual}"


class StepNotAuthorised(NotAuthorised):
    """A banker's act on script line ``line`` refused for want of the banker's PIN; ``reason`` says why.

    >>> str(StepNotAuthorised(3, "wrong banker PIN"))
    'line 3: wrong banker PIN'
    """

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


def perform(step: Step, backend: Backend) -> None:
    """Carry out one step that is not an expectation (``ACTIONS``) on ``backend``."""
    if isinstance(step, Enrol):
        backend.enrol(step.name, step.uid)
    elif isinstance(step, Insert):
        backend.insert(step.reader, step.name)
    elif isinstance(step, Stack):
        _own(backend, "stack", "lay two cards on one reader")(step.reader, step.name)
    elif isinstance(step, Seed):
        _own(backend, "seed", "take its random bytes from a script")(step.text)
    elif isinstance(step, Remove):
        backend.remove(step.reader)
    elif isinstance(step, Press):
        for key in step.keys:
            backend.press(key)
    elif isinstance(step, Hold):
        backend.hold(step.key, step.seconds)
    elif isinstance(step, Wait):
        backend.wait(step.seconds)
    elif isinstance(step, Tap):
        backend.insert(step.reader, step.name)
        backend.remove(step.reader)
    elif isinstance(step, EnrolDeed):
        backend.enrol_deed(step.slug, step.uid)
    else:
        raise TypeError(f"not an action step: {step!r}")


def _own(backend: Backend, name: str, what: str):
    """A step only some backends can take (a remote unit can't): the backend's method, or :class:`ScriptError`."""
    method = getattr(backend, name, None)
    if method is None:
        raise ScriptError(0, f"the {type(backend).__name__} can't {what} ({name})")
    return method


def run(lines: list[Line], backend: Backend) -> Failure | None:
    """Carry out ``lines`` on ``backend``; stop at the first failing expectation and return it.

    A step the unit can't take raises: :class:`ScriptError` with its line,
    :class:`StepNotAuthorised` for a banker's act without the banker's PIN.
    """
    for line in lines:
        step = line.step
        if isinstance(step, ACTIONS):
            try:
                perform(step, backend)
            except ScriptError as exc:
                raise exc.at(line.number) from None
            except NotAuthorised as exc:  # no PIN, a wrong one (already journalled), or PIN entry locked
                if isinstance(exc, StepNotAuthorised):
                    raise
                raise StepNotAuthorised(line.number, str(exc)) from None
        elif isinstance(step, ExpectBalance):
            actual = backend.balance(step.name)
            if actual != step.amount:
                shown = _no_player(step.name, backend) if actual is None else format_amount(actual)
                return Failure(line.number, f"balance {step.name} {format_amount(step.amount)}", shown)
        elif isinstance(step, ExpectScreen):
            screen = backend.screen_lines()
            if not _shows(screen, step.text):
                return Failure(line.number, f"screen showing {step.text!r}", repr(" | ".join(screen)))
        else:
            failure = _check_estate(step, backend)
            if failure is not None:
                return Failure(line.number, *failure)
    return None


def _check_estate(step: Step, backend: Backend) -> tuple[str, str] | None:
    """(expected, actual) if a deed or worth expectation does not hold, else None."""
    if isinstance(step, ExpectOwner):
        actual = backend.owner(step.slug)
        if actual.casefold() != step.name.casefold():
            return f"owner {step.slug} {step.name}", actual
    elif isinstance(step, ExpectHouses):
        actual = backend.houses(step.slug)
        if actual != step.houses:
            return f"houses {step.slug} {step.houses}", str(actual)
    elif isinstance(step, ExpectMortgaged):
        actual = backend.mortgaged(step.slug)
        if actual != step.mortgaged:
            return f"mortgaged {step.slug} {_yes(step.mortgaged)}", _yes(actual)
    elif isinstance(step, ExpectBank):
        houses, hotels = backend.bank_buildings()
        actual = houses if step.what == "houses" else hotels
        if actual != step.count:
            return f"bank-{step.what} {step.count}", str(actual)
    elif isinstance(step, ExpectPot):
        actual = _own(backend, "pot", "tell the Free Parking pot")()
        if actual != step.amount:
            return f"pot {format_amount(step.amount)}", "no pot in this game" if actual is None else format_amount(actual)
    elif isinstance(step, ExpectWorth):
        actual = backend.worth(step.name)
        if actual != step.amount:
            shown = _no_player(step.name, backend) if actual is None else format_amount(actual)
            return f"worth {step.name} {format_amount(step.amount)}", shown
    else:
        raise TypeError(f"not a script step: {step!r}")
    return None


def _no_player(name: str, backend: Backend) -> str:
    """What an expectation found for a name no card has: the nearest enrolled names, when one is close."""
    return "no such player" + did_you_mean(name, backend.balances(), fold=fold_name)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _shows(lines: list[str], needle: str) -> bool:
    return any(needle in line for line in lines) or needle in " ".join(lines)
