"""The script runner: carry a parsed script's steps out on a backend, one by one, and check its expectations.

A backend (:class:`Backend`) is what runs the steps: the local driver over
a shell of this process (:class:`banker.script.driver.ScriptDriver`: the
core, the drivers on simulated chips, the window, the live unit behind its
serial port) or a unit at the other end of a serial test port
(``firmware_sim.serial_backend.SerialBackend``). :func:`run` is the same
for all: :data:`_ACTS` says what a backend does for each action,
:data:`_EXPECTATIONS` how each expectation is checked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from banker.fold.authority import NotAuthorised
from banker.errors import ScriptError
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


#: What a backend does for each step that is not an expectation (``ACTIONS``).
_ACTS: dict[type, Callable[[Any, Backend], None]] = {
    Enrol: lambda step, backend: backend.enrol(step.name, step.uid),
    Insert: lambda step, backend: backend.insert(step.reader, step.name),
    Stack: lambda step, backend: _own(backend, "stack", "lay two cards on one reader")(step.reader, step.name),
    Seed: lambda step, backend: _own(backend, "seed", "take its random bytes from a script")(step.text),
    Remove: lambda step, backend: backend.remove(step.reader),
    Press: lambda step, backend: _press(step.keys, backend),
    Hold: lambda step, backend: backend.hold(step.key, step.seconds),
    Wait: lambda step, backend: backend.wait(step.seconds),
    Tap: lambda step, backend: _tap(step.reader, step.name, backend),
    EnrolDeed: lambda step, backend: backend.enrol_deed(step.slug, step.uid),
}


def _press(keys: tuple[str, ...], backend: Backend) -> None:
    for key in keys:
        backend.press(key)


def _tap(reader: str, name: str, backend: Backend) -> None:
    """A card or a deed's tag laid on ``reader`` and taken away."""
    backend.insert(reader, name)
    backend.remove(reader)


def perform(step: Step, backend: Backend) -> None:
    """Carry out one step that is not an expectation (``ACTIONS``) on ``backend``."""
    act = _ACTS.get(type(step))
    if act is None:
        raise TypeError(f"not an action step: {step!r}")
    act(step, backend)


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
        if isinstance(line.step, ACTIONS):
            _act(line, backend)
            continue
        failed = check(line.step, backend)
        if failed is not None:
            return Failure(line.number, *failed)
    return None


def _act(line: Line, backend: Backend) -> None:
    """Carry out the action on ``line``; its refusal raised again naming the line."""
    try:
        perform(line.step, backend)
    except ScriptError as exc:
        raise exc.at(line.number) from None
    except NotAuthorised as exc:  # no PIN, a wrong one (already journalled), or PIN entry locked
        if isinstance(exc, StepNotAuthorised):
            raise
        raise StepNotAuthorised(line.number, str(exc)) from None


def check(step: Step, backend: Backend) -> tuple[str, str] | None:
    """(expected, actual) if the expectation ``step`` does not hold on ``backend``, else None."""
    expectation = _EXPECTATIONS.get(type(step))
    if expectation is None:
        raise TypeError(f"not a script step: {step!r}")
    return expectation(step, backend)


def _balance(step: ExpectBalance, backend: Backend) -> tuple[str, str] | None:
    actual = backend.balance(step.name)
    if actual == step.amount:
        return None
    shown = _no_player(step.name, backend) if actual is None else format_amount(actual)
    return f"balance {step.name} {format_amount(step.amount)}", shown


def _screen(step: ExpectScreen, backend: Backend) -> tuple[str, str] | None:
    screen = backend.screen_lines()
    if _shows(screen, step.text):
        return None
    return f"screen showing {step.text!r}", repr(" | ".join(screen))


def _owner(step: ExpectOwner, backend: Backend) -> tuple[str, str] | None:
    actual = backend.owner(step.slug)
    return None if actual.casefold() == step.name.casefold() else (f"owner {step.slug} {step.name}", actual)


def _houses(step: ExpectHouses, backend: Backend) -> tuple[str, str] | None:
    actual = backend.houses(step.slug)
    return None if actual == step.houses else (f"houses {step.slug} {step.houses}", str(actual))


def _mortgaged(step: ExpectMortgaged, backend: Backend) -> tuple[str, str] | None:
    actual = backend.mortgaged(step.slug)
    return None if actual == step.mortgaged else (f"mortgaged {step.slug} {_yes(step.mortgaged)}", _yes(actual))


def _bank(step: ExpectBank, backend: Backend) -> tuple[str, str] | None:
    houses, hotels = backend.bank_buildings()
    actual = houses if step.what == "houses" else hotels
    return None if actual == step.count else (f"bank-{step.what} {step.count}", str(actual))


def _pot(step: ExpectPot, backend: Backend) -> tuple[str, str] | None:
    actual = _own(backend, "pot", "tell the Free Parking pot")()
    if actual == step.amount:
        return None
    return f"pot {format_amount(step.amount)}", "no pot in this game" if actual is None else format_amount(actual)


def _worth(step: ExpectWorth, backend: Backend) -> tuple[str, str] | None:
    actual = backend.worth(step.name)
    if actual == step.amount:
        return None
    shown = _no_player(step.name, backend) if actual is None else format_amount(actual)
    return f"worth {step.name} {format_amount(step.amount)}", shown


#: Each expectation's check: (expected, actual) when it does not hold.
_EXPECTATIONS: dict[type, Callable[[Any, Backend], tuple[str, str] | None]] = {
    ExpectBalance: _balance, ExpectScreen: _screen, ExpectOwner: _owner, ExpectHouses: _houses,
    ExpectMortgaged: _mortgaged, ExpectBank: _bank, ExpectPot: _pot, ExpectWorth: _worth,
}


def _no_player(name: str, backend: Backend) -> str:
    """What an expectation found for a name no card has: the nearest enrolled names, when one is close."""
    return "no such player" + did_you_mean(name, backend.balances(), fold=fold_name)


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _shows(lines: list[str], needle: str) -> bool:
    return any(needle in line for line in lines) or needle in " ".join(lines)
