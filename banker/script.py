"""Keypad scripts: parse the plain-text event lists and run them against a backend.

The format (one step a line, ``#`` starts a comment)::

    enrol NAME [UID]          register a player card (UID: hex; made up if absent)
    insert left|right NAME    put a card on the + (left) or - (right) reader
    remove left|right
    press KEY [KEY ...]       keys: 0-9 . M K C GO FN
    hold KEY [SECONDS]        long press (default 3)
    wait SECONDS              let time pass
    expect balance NAME AMOUNT
    expect screen TEXT        TEXT appears on the current screen

The whole script is parsed before anything runs, so a malformed line stops
it with its line number and nothing happens. A backend (the pure core, the
drivers over simulated chips, a device over its serial test port) carries
the steps out; :func:`run` checks the expectations.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol, Union

from .errors import AmountError, ScriptError
from .events import KEYS, READERS
from .ledger import normalise_uid
from .money import format_amount, parse_amount

DEFAULT_HOLD = 3.0


@dataclass(frozen=True)
class Enrol:
    name: str
    uid: str


@dataclass(frozen=True)
class Insert:
    reader: str
    name: str


@dataclass(frozen=True)
class Remove:
    reader: str


@dataclass(frozen=True)
class Press:
    keys: tuple[str, ...]


@dataclass(frozen=True)
class Hold:
    key: str
    seconds: float


@dataclass(frozen=True)
class Wait:
    seconds: float


@dataclass(frozen=True)
class ExpectBalance:
    name: str
    amount: int


@dataclass(frozen=True)
class ExpectScreen:
    text: str


Step = Union[Enrol, Insert, Remove, Press, Hold, Wait, ExpectBalance, ExpectScreen]


@dataclass(frozen=True)
class Line:
    """A parsed step and the 1-based line of the script it came from."""

    number: int
    step: Step


def made_up_uid(name: str) -> str:
    """A stable 4-byte UID for a card named ``name`` in a script that gave none."""
    return hashlib.sha1(name.casefold().encode()).hexdigest()[:8].upper()


def _key(word: str, number: int) -> str:
    key = word.upper()
    if key not in KEYS:
        raise ScriptError(number, f"unknown key {word!r} (keys: {' '.join(KEYS)})")
    return key


def _reader(word: str, number: int) -> str:
    if word.lower() not in READERS:
        raise ScriptError(number, f"reader must be left or right, not {word!r}")
    return word.lower()


def _seconds(word: str, number: int) -> float:
    try:
        value = float(word)
    except ValueError:
        raise ScriptError(number, f"not a number of seconds: {word!r}") from None
    if not 0 <= value <= 86_400:
        raise ScriptError(number, f"seconds out of range: {word}")
    return value


def _arity(words: list[str], number: int, low: int, high: int, usage: str) -> None:
    if not low <= len(words) - 1 <= high:
        raise ScriptError(number, f"usage: {usage}")


def parse_line(text: str, number: int) -> Step | None:
    """The step on one line, None for a blank or comment line; raises :class:`ScriptError`."""
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    verb = words[0].lower()
    if verb == "enrol":
        _arity(words, number, 1, 2, "enrol NAME [UID]")
        try:
            uid = normalise_uid(words[2]) if len(words) == 3 else made_up_uid(words[1])
        except ValueError as exc:
            raise ScriptError(number, str(exc)) from None
        return Enrol(words[1], uid)
    if verb == "insert":
        _arity(words, number, 2, 2, "insert left|right NAME")
        return Insert(_reader(words[1], number), words[2])
    if verb == "remove":
        _arity(words, number, 1, 1, "remove left|right")
        return Remove(_reader(words[1], number))
    if verb == "press":
        _arity(words, number, 1, 999, "press KEY [KEY ...]")
        return Press(tuple(_key(w, number) for w in words[1:]))
    if verb == "hold":
        _arity(words, number, 1, 2, "hold KEY [SECONDS]")
        seconds = _seconds(words[2], number) if len(words) == 3 else DEFAULT_HOLD
        return Hold(_key(words[1], number), seconds)
    if verb == "wait":
        _arity(words, number, 1, 1, "wait SECONDS")
        return Wait(_seconds(words[1], number))
    if verb == "expect":
        return _parse_expect(text.split("#", 1)[0], words, number)
    raise ScriptError(number, f"unknown step {words[0]!r}")


def _parse_expect(text: str, words: list[str], number: int) -> Step:
    what = words[1].lower() if len(words) > 1 else ""
    if what == "balance":
        _arity(words, number, 3, 3, "expect balance NAME AMOUNT")
        try:
            amount = parse_amount(words[3], allow_negative=True, allow_zero=True)
        except AmountError as exc:
            raise ScriptError(number, str(exc)) from None
        return ExpectBalance(words[2], amount)
    if what == "screen":
        needle = text.strip()[len("expect"):].strip()[len("screen"):].strip()
        if not needle:
            raise ScriptError(number, "usage: expect screen TEXT")
        return ExpectScreen(needle)
    raise ScriptError(number, "usage: expect balance NAME AMOUNT | expect screen TEXT")


def parse(text: str) -> list[Line]:
    """Every step of a script, or :class:`ScriptError` for the first malformed line."""
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        step = parse_line(raw, number)
        if step is not None:
            lines.append(Line(number, step))
    return lines


class Backend(Protocol):
    """What runs a script: the core, the drivers on simulated chips, or a device."""

    def enrol(self, name: str, uid: str) -> None: ...
    def insert(self, reader: str, name: str) -> None: ...
    def remove(self, reader: str) -> None: ...
    def press(self, key: str) -> None: ...
    def hold(self, key: str, seconds: float) -> None: ...
    def wait(self, seconds: float) -> None: ...
    def balance(self, name: str) -> int | None: ...
    def screen_lines(self) -> list[str]: ...


@dataclass(frozen=True)
class Failure:
    """The first expectation that did not hold."""

    line: int
    expected: str
    actual: str

    def __str__(self) -> str:
        return f"line {self.line}: expected {self.expected}, got {self.actual}"


def run(lines: list[Line], backend: Backend) -> Failure | None:
    """Carry out ``lines`` on ``backend``; stop at the first failing expectation and return it."""
    for line in lines:
        step = line.step
        if isinstance(step, Enrol):
            backend.enrol(step.name, step.uid)
        elif isinstance(step, Insert):
            backend.insert(step.reader, step.name)
        elif isinstance(step, Remove):
            backend.remove(step.reader)
        elif isinstance(step, Press):
            for key in step.keys:
                backend.press(key)
        elif isinstance(step, Hold):
            backend.hold(step.key, step.seconds)
        elif isinstance(step, Wait):
            backend.wait(step.seconds)
        elif isinstance(step, ExpectBalance):
            actual = backend.balance(step.name)
            if actual != step.amount:
                shown = "no such player" if actual is None else format_amount(actual)
                return Failure(line.number, f"balance {step.name} {format_amount(step.amount)}", shown)
        elif isinstance(step, ExpectScreen):
            screen = backend.screen_lines()
            if not _shows(screen, step.text):
                return Failure(line.number, f"screen showing {step.text!r}", repr(" | ".join(screen)))
    return None


def _shows(lines: list[str], needle: str) -> bool:
    return any(needle in line for line in lines) or needle in " ".join(lines)
