"""The keypad-script format: the steps of a plain-text script, and their parser.

The format (one step a line, ``#`` starts a comment)::

    enrol NAME [UID]          register a player card (UID: hex; made up if absent)
                              (a NAME with spaces or quotes: "Player 1", "say \\"hi\\"")
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

and for the house rules and game modes::

    seed TEXT                 the unit's fresh random bytes come from TEXT from here on,
                              so a short game's deal is the same on every run and backend
    expect pot AMOUNT         the Free Parking pot (the jackpot house rule)

The whole script is parsed before anything runs, so a malformed line stops
it with its line number and nothing happens. A backend (the pure core, the
drivers over simulated chips, a device over its serial test port) carries
the steps out; :func:`banker.script.run.run` checks the expectations (this
module is the format, :mod:`banker.script.run` the runner).

``enrol`` (of a name not enrolled yet) and ``enrol-deed`` are the banker's
acts: once the ledger has a banker's PIN, the backend checks the PIN it was
given (``banker script --pin``) and a refusal stops the script at that line
(:class:`StepNotAuthorised`). The PIN is not part of the format; a script
may also type it on the keypad, as the banker would (``FN`` ... ``M``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from banker.errors import AmountError, ScriptError
from banker.unit.events import KEYS, READERS
from banker.journal.records import normalise_uid
from banker.money import parse_amount
from banker.text.quoting import words as split_words

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
class Seed:
    text: str


@dataclass(frozen=True)
class ExpectPot:
    amount: int


@dataclass(frozen=True)
class ExpectWorth:
    name: str
    amount: int


Step = (Enrol | Insert | Stack | Remove | Press | Hold | Wait | ExpectBalance | ExpectScreen | Tap | EnrolDeed |
    ExpectOwner | ExpectHouses | ExpectMortgaged | ExpectBank | ExpectWorth | Seed | ExpectPot)


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
    """The step on one line, None for a blank or comment line; raises :class:`ScriptError`.

    A name with spaces or quotes is written in double quotes (:mod:`banker.text.quoting`);
    ``expect screen`` takes the rest of its line as it is.
    """
    words = _words(text, number)
    if not words:
        return None
    verb = words[0].lower()
    if verb == "expect":
        return _parse_expect(text.split("#", 1)[0], words, number)
    parse_step = _VERBS.get(verb)
    if parse_step is None:
        raise ScriptError(number, f"unknown step {words[0]!r}")
    return parse_step(words, number)


def _words(text: str, number: int) -> list[str]:
    """The line's words before its comment: quoted names one word each, but ``expect screen``'s split as they stand
    (its text is taken raw)."""
    words = text.split("#", 1)[0].split()
    if [w.lower() for w in words[:2]] != ["expect", "screen"]:
        words = split_words(text, number)
    return words


def _uid(words: list[str], number: int) -> str:
    """The UID an enrolment gives as its third word, or one made up from the name it enrols."""
    try:
        return normalise_uid(words[2]) if len(words) == 3 else made_up_uid(words[1])
    except ValueError as exc:
        raise ScriptError(number, str(exc)) from None


def _enrol(words: list[str], number: int) -> Step:
    _arity(words, number, 1, 2, "enrol NAME [UID]")
    return Enrol(words[1], _uid(words, number))


def _enrol_deed(words: list[str], number: int) -> Step:
    _arity(words, number, 1, 2, "enrol-deed SLUG [UID]")
    return EnrolDeed(words[1].lower(), _uid(words, number))


def _card_on_reader(kind: type, verb: str) -> Callable[[list[str], int], Step]:
    """The parser of ``VERB left|right NAME`` (insert, stack, tap), giving a ``kind`` step."""
    def parse_it(words: list[str], number: int) -> Step:
        _arity(words, number, 2, 2, f"{verb} left|right NAME")
        return kind(_reader(words[1], number), words[2])
    return parse_it


def _remove(words: list[str], number: int) -> Step:
    _arity(words, number, 1, 1, "remove left|right")
    return Remove(_reader(words[1], number))


def _press(words: list[str], number: int) -> Step:
    _arity(words, number, 1, 999, "press KEY [KEY ...]")
    return Press(tuple(_key(w, number) for w in words[1:]))


def _hold(words: list[str], number: int) -> Step:
    _arity(words, number, 1, 2, "hold KEY [SECONDS]")
    seconds = _seconds(words[2], number) if len(words) == 3 else DEFAULT_HOLD
    return Hold(_key(words[1], number), seconds)


def _wait(words: list[str], number: int) -> Step:
    _arity(words, number, 1, 1, "wait SECONDS")
    return Wait(_seconds(words[1], number))


def _seed(words: list[str], number: int) -> Step:
    _arity(words, number, 1, 1, "seed TEXT")
    return Seed(words[1])


#: Each step's verb (but ``expect``, which reads the raw line) and the parser of its words.
_VERBS: dict[str, Callable[[list[str], int], Step]] = {
    "enrol": _enrol, "insert": _card_on_reader(Insert, "insert"), "stack": _card_on_reader(Stack, "stack"),
    "tap": _card_on_reader(Tap, "tap"), "enrol-deed": _enrol_deed, "remove": _remove, "press": _press,
    "hold": _hold, "wait": _wait, "seed": _seed,
}


def _parse_expect(text: str, words: list[str], number: int) -> Step:
    what = words[1].lower() if len(words) > 1 else ""
    if what == "balance":
        _arity(words, number, 3, 3, "expect balance NAME AMOUNT")
        return ExpectBalance(words[2], _amount(words[3], number, allow_negative=True))
    if what == "pot":
        _arity(words, number, 2, 2, "expect pot AMOUNT")
        return ExpectPot(_amount(words[2], number))
    if what == "screen":
        needle = text.strip()[len("expect"):].strip()[len("screen"):].strip()
        if not needle:
            raise ScriptError(number, "usage: expect screen TEXT")
        return ExpectScreen(needle)
    if what in DEED_EXPECTS:
        return _parse_deed_expect(what, words, number)
    raise ScriptError(number, "usage: expect balance|screen|owner|houses|mortgaged|bank-houses|bank-hotels|worth|pot ...")


DEED_EXPECTS = ("owner", "houses", "mortgaged", "bank-houses", "bank-hotels", "worth")


def _count(word: str, number: int, high: int) -> int:
    if not (word.isascii() and word.isdigit()) or int(word) > high:
        raise ScriptError(number, f"not a count 0-{high}: {word!r}")
    return int(word)


def _amount(word: str, number: int, *, allow_negative: bool = False) -> int:
    """An expected amount (zero too), or the line's error."""
    try:
        return parse_amount(word, allow_negative=allow_negative, allow_zero=True)
    except AmountError as exc:
        raise ScriptError(number, str(exc)) from None


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
    return ExpectWorth(words[2], _amount(words[3], number, allow_negative=True))


#: The most steps a script may hold (it is parsed whole before anything runs, so its steps are all in memory).
MAX_STEPS = 100_000
#: The longest line of a script, in bytes of UTF-8 (the reader refuses a longer one).
MAX_LINE_BYTES = 4_096
#: The largest script, in bytes (the reader stops there: an endless file is refused, not read).
MAX_SCRIPT_BYTES = 4 * 1024 * 1024


def parse(text: str) -> list[Line]:
    """Every step of a script, or :class:`ScriptError` for the first malformed line."""
    return parse_lines(text.splitlines())


def parse_lines(lines: Iterable[str]) -> list[Line]:
    """Every step of the script whose lines ``lines`` yields (read as they come), or :class:`ScriptError`
    for the first malformed line, or for a step beyond :data:`MAX_STEPS`."""
    steps = []
    for number, raw in enumerate(lines, start=1):
        step = parse_line(raw, number)
        if step is not None:
            if len(steps) == MAX_STEPS:
                raise ScriptError(number, f"more than {MAX_STEPS:,} steps (the limit): split the script")
            steps.append(Line(number, step))
    return steps


#: The steps that are not expectations: what a backend carries out.
ACTIONS = (Enrol, Insert, Stack, Remove, Press, Hold, Wait, Tap, EnrolDeed, Seed)
