"""The banker's authority: a PIN kept only as a salted hash (the lockout after wrong tries: :mod:`banker.lockout`)."""

from __future__ import annotations

import hashlib
import hmac

from .errors import AmountError, BankerError

PIN_SETTING = "banker_pin"
ROUNDS = 50_000


class NotAuthorised(BankerError, PermissionError):
    """An action that needs the banker's PIN was tried without it (or with a wrong one)."""


def is_pin(text: str) -> bool:
    """True for what the keypad can type as a PIN: 4 to 8 of the ASCII digits 0-9 (not ``²``, not ``١``).

    >>> is_pin("2468"), is_pin("24"), is_pin("２４６８"), is_pin("24 68")
    (True, False, False, False)
    """
    return 4 <= len(text) <= 8 and all(ch in "0123456789" for ch in text)


def hash_pin(pin: str, salt: bytes) -> str:
    """``salt$hash`` of ``pin`` (PBKDF2-SHA256) for the ledger. ``salt``: fresh random bytes from the shell.

    The core has no randomness of its own: the salt comes in with the event
    (``KeyDown.salt``) or from the CLI. An empty salt (a test's event) is
    replaced by one derived from the PIN, which still hashes but is no secret.
    """
    if not is_pin(pin):
        raise AmountError("PIN: 4 to 8 digits 0-9")
    salt = salt or hashlib.sha256(b"banker-pin:" + pin.encode()).digest()[:16]
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, ROUNDS)
    return f"{salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    """True when ``pin`` is the one hashed in ``stored``; never for a text the keypad could not type."""
    if not is_pin(pin):
        return False
    salt, _, digest = stored.partition("$")
    try:
        expected = hash_pin(pin, bytes.fromhex(salt)).partition("$")[2]
    except (AmountError, ValueError):
        return False
    return hmac.compare_digest(expected, digest)
