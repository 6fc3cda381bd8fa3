"""Keypad scripts: parse the plain-text event lists and run them against a backend.

The format (one step a line, ``#`` starts a comment)::

    enrol NAME [UID]          register a player card (UID: hex; made up if absent)
    insert left|right NAME    put a card on the + (left) or - (right) reader
    stack left|right NAME     lay another card on a reader that holds one (both in its field)
    remove left|right         take every card off that reader
    press KEY [KEY ...]       keys: 0-9 . M K C GO FN
    hold KEY [SECONDS]        long press (default 3)
    wait SECONDS              let time pass
    expect balance NAME AMOUNT
    expect screen TEXT        TEXT appears on the current screen

and for title deeds and the rules::

    tap left|right NAME       place a card or a deed's tag and take it away
    enrol-deed SLUG [UID]     give a title deed an RFID tag (UID made up if absent)
    expect owner SLUG NAME|bank
    expect houses SLUG N      0-4 houses, 5 a hotel
    expect mortgaged SLUG yes|no
    expect bank-houses N      houses left in the bank
    expect bank-hotels N
    expect worth NAME AMOUNT  total worth: cash + deeds' prices + buildings at cost

The whole script is parsed before anything runs, so a malformed line stops
it with its line number and nothing happens. A backend (the pure core, the
drivers over simulated chips, a device over its serial test port) carries
the steps out; :func:`run` checks the expectations.

``enrol`` (of a name not enrolled yet) and ``enrol-deed`` are the banker's
acts: once the ledger has a banker's PIN, the backend checks the PIN it was
given (``banker script --pin``) and a refusal stops the script at that line
(:class:`StepNotAuthorised`). The PIN is not part of the format; a script
may also type it on the keypad, as the banker would (``FN`` ... ``M``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol, Union

from .authority import NotAuthorised
from .errors import AmountError, ScriptError
from .events import KEYS, READERS, CardPlaced, CardRemoved, Event, ReaderFault, ReaderRecovered
from .records import normalise_uid
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
class Stack:
    """Another card (or a deed's tag) laid on a reader that may already hold one: both lie in its field."""

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


@dataclass(frozen=True)
class Tap:
    reader: str
    name: str


@dataclass(frozen=True)
class EnrolDeed:
    slug: str
    uid: str


@dataclass(frozen=True)
class ExpectOwner:
    slug: str
    name: str  # a player's name, or "bank"


@dataclass(frozen=True)
class ExpectHouses:
    slug: str
    houses: int  # 5: a hotel


@dataclass(frozen=True)
class ExpectMortgaged:
    slug: str
    mortgaged: bool


@dataclass(frozen=True)
class ExpectBank:
    what: str  # "houses" or "hotels"
    count: int


@dataclass(frozen=True)
class ExpectWorth:
    name: str
    amount: int


Step = Union[
    Enrol, Insert, Stack, Remove, Press, Hold, Wait, ExpectBalance, ExpectScreen,
    Tap, EnrolDeed, ExpectOwner, ExpectHouses, ExpectMortgaged, ExpectBank, ExpectWorth,
]


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
        if not word.isascii() or word.strip().lower() in ("nan", "inf", "+inf", "-inf", "infinity"):
            raise ValueError(word)  # float() reads other scripts' digits and NaN: a script may not
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
    if verb == "stack":
        _arity(words, number, 2, 2, "stack left|right NAME")
        return Stack(_reader(words[1], number), words[2])
    if verb == "tap":
        _arity(words, number, 2, 2, "tap left|right NAME")
        return Tap(_reader(words[1], number), words[2])
    if verb == "enrol-deed":
        _arity(words, number, 1, 2, "enrol-deed SLUG [UID]")
        try:
            uid = normalise_uid(words[2]) if len(words) == 3 else made_up_uid(words[1])
        except ValueError as exc:
            raise ScriptError(number, str(exc)) from None
        return EnrolDeed(words[1].lower(), uid)
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
    if what in DEED_EXPECTS:
        return _parse_deed_expect(what, words, number)
    raise ScriptError(number, "usage: expect balance|screen|owner|houses|mortgaged|bank-houses|bank-hotels|worth ...")


DEED_EXPECTS = ("owner", "houses", "mortgaged", "bank-houses", "bank-hotels", "worth")


def _count(word: str, number: int, high: int) -> int:
    if not (word.isascii() and word.isdigit()) or int(word) > high:
        raise ScriptError(number, f"not a count 0-{high}: {word!r}")
    return int(word)


def _parse_deed_expect(what: str, words: list[str], number: int) -> Step:
    if what == "owner":
        _arity(words, number, 3, 3, "expect owner SLUG NAME|bank")
        return ExpectOwner(words[2].lower(), words[3])
    if what == "houses":
        _arity(words, number, 3, 3, "expect houses SLUG N")
        return ExpectHouses(words[2].lower(), _count(words[3], number, 5))
    if what == "mortgaged":
        _arity(words, number, 3, 3, "expect mortgaged SLUG yes|no")
        if words[3].lower() not in ("yes", "no"):
            raise ScriptError(number, f"mortgaged: yes or no, not {words[3]!r}")
        return ExpectMortgaged(words[2].lower(), words[3].lower() == "yes")
    if what in ("bank-houses", "bank-hotels"):
        _arity(words, number, 2, 2, f"expect {what} N")
        return ExpectBank(what[len("bank-"):], _count(words[2], number, 999))
    _arity(words, number, 3, 3, "expect worth NAME AMOUNT")
    try:
        amount = parse_amount(words[3], allow_negative=True, allow_zero=True)
    except AmountError as exc:
        raise ScriptError(number, str(exc)) from None
    return ExpectWorth(words[2], amount)


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

    def enrol(self, name: str, uid: str) -> None: ...  # the banker's act: NotAuthorised without the PIN
    def insert(self, reader: str, name: str) -> None: ...
    def stack(self, reader: str, name: str) -> None: ...  # another card on the reader: both in its field
    def remove(self, reader: str) -> None: ...  # every card off that reader
    def press(self, key: str) -> None: ...
    def hold(self, key: str, seconds: float) -> None: ...
    def wait(self, seconds: float) -> None: ...
    def balance(self, name: str) -> int | None: ...
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


ACTIONS = (Enrol, Insert, Stack, Remove, Press, Hold, Wait, Tap, EnrolDeed)


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
        stack = getattr(backend, "stack", None)
        if stack is None:
            raise ScriptError(0, f"the {type(backend).__name__} can't lay two cards on one reader (stack)")
        stack(step.reader, step.name)
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
                shown = "no such player" if actual is None else format_amount(actual)
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
    elif isinstance(step, ExpectWorth):
        actual = backend.worth(step.name)
        if actual != step.amount:
            shown = "no such player" if actual is None else format_amount(actual)
            return f"worth {step.name} {format_amount(step.amount)}", shown
    else:
        raise TypeError(f"not a script step: {step!r}")
    return None


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def _shows(lines: list[str], needle: str) -> bool:
    return any(needle in line for line in lines) or needle in " ".join(lines)
