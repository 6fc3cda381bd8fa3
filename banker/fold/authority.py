"""The banker's authority: which records need it (one table), the grant offered with one, and the PIN's hash.

An act that changes who plays, what a deed's tag is, the rules, the PIN or
the past is the banker's. Such a record is committed with a :class:`Grant`
(the PIN as typed, the path it came by) and the write path
(:meth:`runtime.ledger.Ledger.commit`) is the one place that checks it,
journals a wrong one and applies the lockout (:mod:`banker.fold.lockout`). No
other code decides whether a PIN is needed: a flow, a CLI command, a script
or the serial port builds the record and passes whatever PIN it was given.

>>> from banker.fold.game import replay
>>> from banker.journal.records import Setting
>>> game = replay([], editions={})
>>> needs_authority(game, Setting("volume", "1")), needs_authority(game, Setting("rules", "x"))
(None, 'changing a setting')
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import TYPE_CHECKING
from collections.abc import Callable

from banker.text.i18n import _
from banker.errors import AmountError, BankerError
from banker.fold.lockout import seconds_locked
from banker.journal.records import (
    DeedTag,
    Enrolment,
    GameRestored,
    JournalAccepted,
    KeyAdopted,
    KeyShown,
    NewGame,
    PinChange,
    Record,
    Removal,
    Rename,
    Setting,
    TokenRenewal,
    Transaction,
)

if TYPE_CHECKING:
    from banker.fold.game import Game

PIN_SETTING = "banker_pin"
ROUNDS = 50_000
#: The prefix of a verifier keyed with the ledger's pepper (:func:`pepper_verifier`).
PEPPERED = "p1$"
#: The settings any player may change: the volume (the ``.`` key) and the language (``FN 8``); neither moves money.
FREE_SETTINGS = frozenset({"volume", "language"})


class NotAuthorised(BankerError, PermissionError):
    """An action that needs the banker's PIN was tried without it (or with a wrong one)."""


class PinNeeded(NotAuthorised):
    """No PIN came with an act that needs one."""


class WrongPin(NotAuthorised):
    """The PIN given is not the banker's (the try is journalled: it counts towards the lockout)."""


class PinUncheckable(NotAuthorised):
    """The PIN's verifier is keyed with the ledger's key (peppered) and the key is not here: nothing can check it."""


class PinLocked(NotAuthorised):
    """PIN entry is locked after wrong tries; ``seconds`` until it opens again."""

    def __init__(self, message: str, seconds: int) -> None:
        super().__init__(message)
        self.seconds = seconds


@dataclass(frozen=True)
class Grant:
    """The banker's authority offered with an act: ``pin`` as typed (None: none given), ``via`` the path it came
    by ("keypad", "cli", "script", "serial"), ``wall`` the wall-clock time it was typed at (None: the
    ledger's clock when it is checked). Never shown, logged or journalled."""

    pin: str | None
    via: str = "keypad"
    wall: float | None = None

    def __repr__(self) -> str:
        return f"Grant(pin={'***' if self.pin else None}, via={self.via!r})"


# -- the one table -------------------------------------------------------------------------------


def _undo_of_older(game: Game, tx: Transaction) -> str | None:
    if tx.reverses is None or (game.last is not None and game.last.id == tx.reverses):
        return None
    return "undoing an older transaction"


def _new_game(game: Game, rec: NewGame) -> str | None:
    return None if game.id == 0 or rec.settings == game.settings else "changing the game's rules"


def _pin(game: Game, rec: PinChange) -> str | None:
    return None if game.pin_hash is None else "changing the banker's PIN"


def _setting(game: Game, rec: Setting) -> str | None:
    return None if rec.key in FREE_SETTINGS else "changing a setting"


#: Each kind of record that can need the banker's authority, and what decides it from the game and the record.
#: A kind not here never needs it (a payment, a wrong PIN's record, a snapshot).
AUTHORITY: dict[type, Callable[..., str | None]] = {
    Enrolment: lambda game, rec: "enrolling a card",
    Rename: lambda game, rec: "renaming a player",
    Removal: lambda game, rec: "retiring a card",
    DeedTag: lambda game, rec: "tagging a deed",
    GameRestored: lambda game, rec: "restoring a game",
    NewGame: _new_game,
    PinChange: _pin,
    Setting: _setting,
    Transaction: _undo_of_older,
    TokenRenewal: lambda game, rec: "renewing the table page's token",
    KeyShown: lambda game, rec: "showing the ledger's key",
    JournalAccepted: lambda game, rec: "accepting the journal as it stands",
    KeyAdopted: lambda game, rec: "adopting the ledger under a new key",
}


def needs_authority(game: Game, record: Record) -> str | None:
    """What ``record`` is, in a few words, if committing it to ``game`` is the banker's act; else None."""
    rule = AUTHORITY.get(type(record))
    return None if rule is None else rule(game, record)


def requires_pin(game: Game, record: Record) -> bool:
    """Whether committing ``record`` to ``game`` needs the banker's PIN now (an act of the banker's, a PIN set)."""
    return game.pin_hash is not None and needs_authority(game, record) is not None


def refusal(game: Game, grant: Grant | None, now: float, pepper: bytes | None = None) -> NotAuthorised | None:
    """Why ``grant`` does not carry the banker's authority in ``game`` at wall-clock ``now``; None when it does.

    The one check of a PIN (the write path calls it; a :class:`WrongPin` is
    then journalled there). Nothing to check when no PIN is set. ``pepper``:
    the ledger's PIN pepper (:func:`pin_pepper` of its key), which a peppered
    verifier can't be checked without (:class:`PinUncheckable`).
    """
    if game.pin_hash is None:
        return None
    left = seconds_locked(game.pin_failures, now)
    if left:
        return PinLocked(f"PIN entry is locked for {left} s after wrong PINs", left)
    if grant is None or grant.pin is None:
        return PinNeeded("this needs the banker's PIN (--pin)")
    if is_peppered(game.pin_hash) and pepper is None:
        return PinUncheckable("the banker's PIN can't be checked without this ledger's key (it is not on this "
                              "machine: import it with 'banker key import', or adopt the ledger, docs/security.md)")
    if not pin_matches(grant.pin, game.pin_hash, pepper):
        return WrongPin("wrong banker PIN" if is_pin(grant.pin) else "wrong banker PIN (a PIN is 4 to 8 digits 0-9)")
    return None


# -- the PIN's hash ------------------------------------------------------------------------------


def is_pin(text: str) -> bool:
    """True for what the keypad can type as a PIN: 4 to 8 of the ASCII digits 0-9 (not ``²``, not ``١``).

    >>> is_pin("2468"), is_pin("24"), is_pin("２４６８"), is_pin("24 68")
    (True, False, False, False)
    """
    return 4 <= len(text) <= 8 and all(ch in "0123456789" for ch in text)


def pin_pepper(key: bytes) -> bytes:
    """The sub-key that peppers the PIN's verifier, derived from the ledger's ``key`` (never the key itself)."""
    return hmac.new(key, b"monopoly-banker pin pepper v1", hashlib.sha256).digest()


def is_peppered(stored: str) -> bool:
    """True for a verifier keyed with a ledger's pepper (``p1$salt$mac``), False for an older ``salt$hash``."""
    return stored.startswith(PEPPERED)


def hash_pin(pin: str, salt: bytes, pepper: bytes | None = None) -> str:
    """The verifier of ``pin`` for the ledger: ``salt$hash`` (PBKDF2-SHA256), peppered when ``pepper`` is given.

    The core has no randomness of its own: the salt comes in with the event
    (``KeyDown.salt``) or from the CLI. An empty salt (a test's event) is
    replaced by one derived from the PIN, which still hashes but is no secret.
    The core has no key either: the write path peppers the verifier
    (:func:`pepper_verifier`) before it is journalled.
    """
    if not is_pin(pin):
        raise AmountError(_('PIN: 4 to 8 digits 0-9'))
    salt = salt or hashlib.sha256(b"banker-pin:" + pin.encode()).digest()[:16]
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, ROUNDS)
    plain = f"{salt.hex()}${digest.hex()}"
    return plain if pepper is None else pepper_verifier(plain, pepper)


def pepper_verifier(stored: str, pepper: bytes) -> str:
    """``stored`` (``salt$hash``) keyed with ``pepper``: ``p1$salt$HMAC-SHA256(pepper, hash)``.

    The pepper is applied to the slow hash's output, so the write path can
    key a verifier the keypad made without ever seeing the PIN, and testing
    a PIN against the result takes the slow hash *and* the ledger's key. A
    verifier already peppered is returned as it is.
    """
    if is_peppered(stored):
        return stored
    salt, _, digest = stored.partition("$")
    try:
        raw = bytes.fromhex(digest)
    except ValueError:
        return stored  # not a verifier at all: it matches nothing either way
    return f"{PEPPERED}{salt}${hmac.new(pepper, raw, hashlib.sha256).hexdigest()}"


def pin_matches(pin: str, stored: str, pepper: bytes | None = None) -> bool:
    """True when ``pin`` is the one hashed in ``stored``; never for a text the keypad could not type, nor for a
    peppered verifier without its ``pepper``."""
    if not is_pin(pin):
        return False
    peppered = is_peppered(stored)
    if peppered and pepper is None:
        return False
    salt, _, digest = stored.removeprefix(PEPPERED).partition("$")
    try:
        expected = hash_pin(pin, bytes.fromhex(salt))
    except (AmountError, ValueError):
        return False
    if peppered:
        expected = pepper_verifier(expected, pepper)
        return hmac.compare_digest(expected.removeprefix(PEPPERED), stored.removeprefix(PEPPERED))
    return hmac.compare_digest(expected.partition("$")[2], digest)
