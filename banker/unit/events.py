"""What happens to the unit (events in) and what it asks the world to do (effects out).

Events are plain immutable records that drivers, the simulator or a keypad
script produce; every event carries the monotonic time ``t`` in seconds at
which it happened, so holds and timeouts are decided without sleeping.
Effects are values the shell carries out (play a tone, switch the display, log a line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

class Key(StrEnum):
    """The 16 keys of the unit, in keypad order (row by row). The values are what drivers, keypad scripts and
    the serial port send (``"0"``-``"9"``, ``"."``, ``"M"``, ``"K"``, ``"C"``, ``"GO"``, ``"FN"``); a member
    equals its string, so ``Key(word)`` checks a key word and ``key == Key.M`` reads it in the core."""

    D1 = "1"
    D2 = "2"
    D3 = "3"
    M = "M"
    D4 = "4"
    D5 = "5"
    D6 = "6"
    K = "K"
    D7 = "7"
    D8 = "8"
    D9 = "9"
    C = "C"
    POINT = "."
    D0 = "0"
    GO = "GO"
    FN = "FN"


#: The key words, in keypad order (row by row).
KEYS: tuple[str, ...] = tuple(key.value for key in Key)
#: The digit keys ``0``-``9``.
DIGITS: frozenset[Key] = frozenset(key for key in Key if key.isdigit())
#: The keys that finish an amount: ``M`` (millions) and ``K`` (thousands).
SUFFIXES: frozenset[Key] = frozenset((Key.M, Key.K))
#: The keys an amount is typed with: the digits and the point.
AMOUNT_KEYS: frozenset[Key] = DIGITS | {Key.POINT}

Reader = Literal["left", "right"]
READERS: tuple[Reader, ...] = ("left", "right")


@dataclass(frozen=True)
class KeyDown:
    """A key went down: ``key`` is a key word (:data:`KEYS`; the step reads it as a :class:`Key`). ``salt``:
    fresh random bytes from the shell, for a PIN typed with this key (or a short game's deal started with it);
    ``wall``: the wall clock's time then (epoch seconds, from the shell), against which a PIN lockout runs;
    ``day``: the local time of day then in seconds since midnight, only while the system says its clock is set
    right (network time; None: unknown), so a time-limit game may end at an hour typed."""

    key: str
    t: float
    salt: bytes = b""
    wall: float = 0.0
    day: float | None = None


@dataclass(frozen=True)
class KeyUp:
    """A key came back up."""

    key: str
    t: float


@dataclass(frozen=True)
class CardPlaced:
    """A card (by its UID, upper-case hex) was placed on a reader."""

    reader: Reader
    uid: str
    t: float


@dataclass(frozen=True)
class CardRemoved:
    """The card on a reader was taken away."""

    reader: Reader
    t: float


@dataclass(frozen=True)
class Tick:
    """Time passed with nothing else happening."""

    t: float


@dataclass(frozen=True)
class CommitFailed:
    """The record the last step asked for could not be written (``reason``): nothing changed."""

    reason: str
    t: float


@dataclass(frozen=True)
class PinRefused:
    """The write path refused the banker's PIN the last step offered: nothing was written but a wrong try.
    ``why``: "wrong", "locked" (for ``locked_for`` more seconds) or "needed" (no PIN came)."""

    why: Literal["wrong", "locked", "needed"]
    locked_for: int
    t: float


Fault = Literal["two-cards", "not-answering"]
FAULTS: tuple[Fault, ...] = ("two-cards", "not-answering")


@dataclass(frozen=True)
class ReaderFault:
    """A reader can't read: two cards lie in its field (``"two-cards"``) or its chip doesn't answer.

    While it stands the unit shows it, counts the reader as holding no card
    and pays nothing; it clears with :class:`ReaderRecovered` or the next
    clean :class:`CardPlaced` / :class:`CardRemoved` on that reader.
    """

    reader: Reader
    fault: Fault
    t: float


@dataclass(frozen=True)
class ReaderRecovered:
    """The reader reads again; ``restarted``: its polling thread failed and was started anew."""

    reader: Reader
    t: float
    restarted: bool = False


@dataclass(frozen=True)
class WebAddress:
    """The table page's address with its access token (docs/web.md), or None when no page is served."""

    url: str | None
    t: float


@dataclass(frozen=True)
class KeyRevealed:
    """The ledger's key as ``banker key import`` reads it, for the screen that shows it as a QR code (the shell
    answers :class:`RevealKey` with it, once the banker's PIN let the act through); never shown in a log."""

    text: str = field(repr=False)
    t: float


Event = (KeyDown | KeyUp | CardPlaced | CardRemoved | Tick | CommitFailed | PinRefused | ReaderFault |
    ReaderRecovered | WebAddress | KeyRevealed)

Tone = Literal["key", "success", "refusal", "new-game", "volume", "warning", "tick", "going-once", "going-twice"]
#: ``tick``, ``going-once`` and ``going-twice``: an auction's last seconds (:mod:`banker.unit.flows.auction`).
TONES: tuple[Tone, ...] = ("key", "success", "refusal", "new-game", "volume", "warning", "tick", "going-once",
                           "going-twice")


@dataclass(frozen=True)
class PlayTone:
    """Sound ``tone`` on the buzzer at ``volume`` (0 off, 1 low, 2 medium, 3 high)."""

    tone: Tone
    volume: int


@dataclass(frozen=True)
class SetDisplayPower:
    """Switch the display panel on (wake) or off (sleep)."""

    on: bool


@dataclass(frozen=True)
class Log:
    """A line for the unit's log (a programming error, a noteworthy refusal)."""

    text: str


@dataclass(frozen=True)
class RenewWebToken:
    """The banker asked for a new access token for the table page: old sessions close."""


@dataclass(frozen=True)
class RevealKey:
    """The banker asked to see the ledger's key (``FN M``): the shell answers with :class:`KeyRevealed`."""


@dataclass(frozen=True)
class LiveState:
    """What the active flow shows the table page while it runs, before anything is journalled (a timed auction:
    ``{"kind": "auction", ...}``, docs/web.md); ``data`` None: nothing is live any more. The step emits it when
    the active mode's live view changes; the shell hands it to its ``on_effect`` (the in-process table page)."""

    data: dict | None


# -- the voice: what to say, and the balance key's request ------------------------------------


@dataclass(frozen=True)
class ReadBalances:
    """The balance key (``FN FN``, on a unit that speaks): the step turns it into a :class:`Say` of the balances of
    the cards on the readers, in the game's language (:func:`banker.unit.voice.balances_said`)."""


@dataclass(frozen=True)
class Say:
    """Speak ``text`` (words, not the screen's notation: :mod:`banker.unit.voice`) in language ``lang`` at ``volume``
    (the unit's 0-3: 0 is silent). The shell hands it to its voice after the frame is drawn; a newer one cuts
    a stale one short (docs/voice.md)."""

    text: str
    volume: int
    lang: str = "en"


Effect = PlayTone | SetDisplayPower | Log | RenewWebToken | RevealKey | LiveState | Say | ReadBalances
