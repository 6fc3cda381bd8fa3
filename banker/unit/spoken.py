"""Words a speech engine reads right: amounts in words ("2 million", "890 thousand"), a screen's notation made
speakable, phrases and sentences joined (pure; :mod:`banker.unit.voice` and :mod:`banker.unit.voice_deals` say them).

Every text comes through ``tr``, a gettext translations object; the default
:data:`~banker.text.i18n.ENGLISH` is the texts as written here, and a catalog
translates them with the context ``"voice"``.

>>> spoken_amount(2_000_000), spoken_amount(890_000), spoken_amount(1_500_000), spoken_amount(14_151_500)
('2 million', '890 thousand', '1.5 million', '14 million 151 thousand 500')
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from banker.errors import AmountError
from banker.text.i18n import ENGLISH, Tr
from banker.money import parse_amount

if TYPE_CHECKING:
    from banker.rules.deeds import Edition


def spoken_amount(amount: int, tr: Tr = ENGLISH) -> str:
    """``amount`` dollars as words a speech engine reads right: "2 million", "1.5 million", "890 thousand",
    "14 million 151 thousand 500"; exact, never rounded (a fraction of a million only when it is one or two
    digits: 1.5, 2.25)."""
    if amount < 0:
        return tr.pgettext("voice", "minus {amount}").format(amount=spoken_amount(-amount, tr))
    millions, rest = divmod(amount, 1_000_000)
    fraction = f"{rest:06d}".rstrip("0")
    if millions and rest and len(fraction) <= 2 and not fraction.startswith("0"):
        # Translators: a decimal separator for spoken amounts ("2.5 million"; de: ",").
        point = tr.pgettext("voice decimal separator", ".")
        # Translators: "1.5 million" (n: the whole millions, 1): each form as the language says it ("1,5 million"
        # in French, "1,5 Millionen" in German).
        return tr.npgettext("voice", "{x} million", "{x} million", millions).format(x=f"{millions}{point}{fraction}")
    thousands, units = divmod(rest, 1_000)
    parts = []
    if millions:
        parts.append(tr.npgettext("voice", "{n} million", "{n} million", millions).format(n=millions))
    if thousands:
        parts.append(tr.npgettext("voice", "{n} thousand", "{n} thousand", thousands).format(n=thousands))
    if units or not parts:
        parts.append(str(units))
    return " ".join(parts)


_NOTATION = re.compile(r"(?<![\w.])([+-]?)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)([MK]?)(?![\w.])")


def spoken_text(text: str, tr: Tr = ENGLISH) -> str:
    """A screen's ``text`` made speakable: its amounts in words ("Bob short 890K" -> "Bob short 890
    thousand"), the readers' ``+`` and ``-`` named."""

    def word(match: re.Match) -> str:
        _sign, number, suffix = match.groups()
        if not suffix and "," not in number:
            return match.group(0)  # a count, a board square, a PIN's length: read as it is
        try:
            amount = parse_amount(match.group(0).lstrip("+"), allow_negative=True, allow_zero=True)
        except AmountError:
            return match.group(0)  # not whole dollars ("1.2345K"): read as it is
        return spoken_amount(amount, tr)

    text = _NOTATION.sub(word, text)
    text = re.sub(r"(?<!\S)\+(?=[\s,;:.]|$)", tr.pgettext("voice", "plus"), text)  # "on +, buyer on -"
    return re.sub(r"(?<!\S)-(?=[\s,;:.]|$)", tr.pgettext("voice", "minus"), text)


def sentences(*parts: str) -> str:
    """The parts as sentences: each ends with a full stop (unless it has its own; a screen line's closing ``,``
    ``;`` or ``:`` becomes one), joined by spaces."""
    ended = (p.rstrip(",;:") for p in parts)
    return " ".join(p if p.endswith((".", "!", "?")) else p + "." for p in ended if p)


def listed(items: list[str], tr: Tr) -> str:
    """``items`` as one phrase: "A", "A and B", "A, B and C"."""
    if len(items) < 2:
        return "".join(items)
    return tr.pgettext("voice", "{first} and {last}").format(first=", ".join(items[:-1]), last=items[-1])


def in_full(text: str, edition: Edition) -> str:
    """``text`` (a screen's line) with each deed's short name as the board prints it in full: "Rent Connect. Av" ->
    "Rent Connecticut Avenue" (espeak-ng reads "Av." as "Af"); a full name already there stays as it is."""
    names = {d.short: d.name for d in edition.deeds} | {d.name: d.name for d in edition.deeds}
    pattern = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.sub(rf"(?<!\w)(?:{pattern})(?!\w)", lambda m: names[m.group(0)], text)
