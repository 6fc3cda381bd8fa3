"""Amount entry: the digits and decimal point typed on the keypad before M or K."""

from __future__ import annotations

from dataclasses import dataclass

from banker.text.i18n import _
from banker.errors import AmountError
from banker.money import MAX_DIGITS, parse_entry

#: What the amount line shows once more digits were typed than an amount may have.
# Translators: a big line (10 characters)
TOO_LONG = _("Too long")


@dataclass(frozen=True)
class AmountEntry:
    """What has been typed so far (``"1.5"``); immutable, each key gives a new entry.

    A digit past the fifth is not dropped: the entry becomes :attr:`too_long`,
    shows ``Too long`` and refuses to finish, so a shortened amount can never
    be paid; ``C`` clears it.

    >>> entry = AmountEntry()
    >>> for key in "123456":
    ...     entry = entry.type(key)
    >>> entry.too_long, entry.shown()
    (True, 'Too long')
    >>> entry.finish("K")
    Traceback (most recent call last):
    ...
    banker.errors.AmountError: 5 digits at most
    """

    typed: str = ""

    @property
    def empty(self) -> bool:
        return not self.typed

    @property
    def digits(self) -> int:
        return sum(ch in "0123456789" for ch in self.typed)

    @property
    def too_long(self) -> bool:
        """More digits were typed than an amount may have: the entry can only be cleared."""
        return self.digits > MAX_DIGITS

    def type(self, key: str) -> AmountEntry:
        """The entry with ``key`` (a digit 0-9 or ``.``) added; refuses a 2nd point.

        A 6th digit makes the entry :attr:`too_long` (later keys leave it so).
        """
        if key == ".":
            if self.too_long:
                return self
            if "." in self.typed:
                raise AmountError(_('one point only'))
        elif len(key) == 1 and key in "0123456789":
            if self.too_long:
                return self
        else:
            raise ValueError(f"not an amount key: {key!r}")
        return AmountEntry(self.typed + key)

    def finish(self, suffix: str) -> int:
        """The amount in dollars once ``M`` or ``K`` is pressed (:class:`AmountError` for a too long entry)."""
        return parse_entry(self.typed, suffix)

    def shown(self) -> str:
        """The entry as the screen shows it while typing, with a cursor (``Too long`` past the 5th digit)."""
        return TOO_LONG if self.too_long else self.typed + "_"
