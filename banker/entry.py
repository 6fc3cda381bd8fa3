"""Amount entry: the digits and decimal point typed on the keypad before M or K."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import AmountError
from .money import MAX_DIGITS, parse_entry


@dataclass(frozen=True)
class AmountEntry:
    """What has been typed so far (``"1.5"``); immutable, each key gives a new entry."""

    typed: str = ""

    @property
    def empty(self) -> bool:
        return not self.typed

    def type(self, key: str) -> "AmountEntry":
        """The entry with ``key`` (a digit or ``.``) added; refuses a 6th digit or a 2nd point."""
        if key == ".":
            if "." in self.typed:
                raise AmountError("one point only")
        elif key.isdigit() and len(key) == 1:
            if sum(ch.isdigit() for ch in self.typed) >= MAX_DIGITS:
                raise AmountError(f"{MAX_DIGITS} digits at most")
        else:
            raise ValueError(f"not an amount key: {key!r}")
        return AmountEntry(self.typed + key)

    def finish(self, suffix: str) -> int:
        """The amount in dollars once ``M`` or ``K`` is pressed."""
        return parse_entry(self.typed, suffix)

    def shown(self) -> str:
        """The entry as the screen shows it while typing, with a cursor."""
        return self.typed + "_"
