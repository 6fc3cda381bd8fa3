"""Money: parse and format exact integer dollar amounts, the unit's way (``1.5M``, ``850K``).

This is the one place where amounts are read from text and written as text.
Amounts are ``int`` dollars; a float never touches money. Only the ASCII
digits 0-9 are digits here (``²`` or ``١٢`` are refused, never read as 12),
and no amount is larger than :data:`MAX_AMOUNT`.
"""

from __future__ import annotations

from banker.text.i18n import _
from banker.errors import AmountError

#: The unit's screen shows at most this many digits of an amount.
MAX_DIGITS = 5
SUFFIXES = {"M": 1_000_000, "K": 1_000}
#: The largest amount anyone may write (a trillion dollars less one: a thousand times a box's money,
#: and far below the 2**53 that a JSON reader keeps exact, however many players' balances are added).
MAX_AMOUNT = 10**12 - 1
_DIGITS = frozenset("0123456789")


def is_digits(text: str) -> bool:
    """True when ``text`` is one or more of the ASCII digits 0-9 and nothing else (``str.isdigit`` takes ``²``)."""
    return bool(text) and all(ch in _DIGITS for ch in text)


def _grouped(text: str) -> str | None:
    """``1,500,000`` (or ``1_500_000``) without its separators; None unless every group after the first has 3 digits."""
    for sep in ",_":
        if sep in text:
            head, *groups = text.split(sep)
            joined = head + "".join(groups)
            if 1 <= len(head) <= 3 and groups and all(len(g) == 3 for g in groups) and is_digits(joined):
                return joined
            return None
    return text


def _checked(amount: int, text: str) -> int:
    if amount > MAX_AMOUNT:
        raise AmountError(f"too large: {text} (at most {MAX_AMOUNT:,} dollars)")
    return amount


def parse_entry(typed: str, suffix: str) -> int:
    """The amount of a keypad entry: ``typed`` digits (at most one ``.``) then ``M`` or ``K``.

    >>> parse_entry("1.5", "M")
    1500000
    >>> parse_entry(".5", "M")
    500000

    Raises :class:`AmountError` for an empty, malformed, zero or fractional-dollar entry.
    """
    if suffix not in SUFFIXES:
        raise AmountError(f"finish with M or K, not {suffix!r}")
    if not typed or typed == ".":
        raise AmountError(_('type an amount first'))
    if typed.count(".") > 1 or not is_digits(typed.replace(".", "")):
        raise AmountError(f"not an amount: {typed}{suffix}")
    if sum(ch.isdigit() for ch in typed) > MAX_DIGITS:
        raise AmountError(_('{n} digits at most', n=MAX_DIGITS))
    whole, _point, fraction = typed.partition(".")
    amount = _dollars(whole, fraction, SUFFIXES[suffix])
    if amount is None:
        raise AmountError(_('not whole dollars: {typed}{suffix}', typed=typed, suffix=suffix))
    if amount == 0:
        raise AmountError(_('the amount is zero'))
    return amount


def parse_amount(text: str, *, allow_negative: bool = False, allow_zero: bool = False) -> int:
    """Read an amount written by a person: ``15M``, ``1.5M``, ``850K``, ``500``, ``15,000,000``.

    Unlike :func:`parse_entry` there is no digit limit, only :data:`MAX_AMOUNT`.
    Commas (or underscores) group the digits of plain dollars in threes and
    nowhere else (``1,5M`` is refused, not read as 15M). A leading ``-`` is
    accepted only with ``allow_negative`` (balances can be negative under a
    house rule); zero only with ``allow_zero``.

    >>> parse_amount("1,500,000"), parse_amount("1.5m"), parse_amount("-500K", allow_negative=True)
    (1500000, 1500000, -500000)
    """
    raw = text.strip()
    negative = raw.startswith("-")
    if negative:
        if not allow_negative:
            raise AmountError(f"not a positive amount: {text}")
        raw = raw[1:]
    if len(raw) > 32:  # longer than any amount up to MAX_AMOUNT can be written
        raise AmountError(f"not an amount: {text[:32]}... (at most {MAX_AMOUNT:,} dollars)")
    amount = _suffixed(raw, text) if raw[-1:].upper() in SUFFIXES else _plain(raw, text)
    amount = _checked(amount, text.strip())
    if amount == 0 and not allow_zero:
        raise AmountError("the amount is zero")
    return -amount if negative else amount


def _dollars(whole: str, fraction: str, unit: int) -> int | None:
    """``whole.fraction`` times ``unit`` in dollars (digits, either part may be empty), None if not whole dollars."""
    scaled, scale = int(fraction or "0") * unit, 10 ** len(fraction)
    if scaled % scale:
        return None
    return int(whole or "0") * unit + scaled // scale


def _suffixed(raw: str, text: str) -> int:
    """An amount with a suffix, ``15M``, ``1.5m``, ``850K``: digits with at most one point, then M or K."""
    whole, _point, fraction = raw[:-1].partition(".")
    if not is_digits(whole + fraction):
        raise AmountError(f"not an amount: {text}")
    amount = _dollars(whole, fraction, SUFFIXES[raw[-1:].upper()])
    if amount is None:
        raise AmountError(f"not whole dollars: {text}")
    return amount


def _plain(raw: str, text: str) -> int:
    """Plain dollars, ``500``, ``15,000,000``: digits, grouped in threes or not at all."""
    plain = _grouped(raw)
    if plain is None or not is_digits(plain):
        raise AmountError(f"not an amount: {text}")
    return int(plain)


def format_amount(amount: int) -> str:
    """The unit's way of writing ``amount`` dollars, exact and never rounded.

    >>> [format_amount(n) for n in (15_000_000, 1_500_000, 14_151_000, 850_000, 5_500, 500)]
    ['15M', '1.5M', '14.151M', '850K', '5.5K', '500']
    >>> format_amount(-500_000), format_amount(123_456_789)
    ('-500K', '123,456,789')
    """
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise TypeError(f"money is an int, not {type(amount).__name__}")
    if amount < 0:
        return "-" + format_amount(-amount)
    for suffix, unit in SUFFIXES.items():
        if amount >= unit:
            whole, rest = divmod(amount, unit)
            fraction = str(rest).rjust(len(str(unit)) - 1, "0").rstrip("0")
            if len(str(whole)) + len(fraction) <= MAX_DIGITS:
                return f"{whole}.{fraction}{suffix}" if fraction else f"{whole}{suffix}"
    if amount < 10**MAX_DIGITS:
        return str(amount)
    return f"{amount:,}"


def format_signed(amount: int) -> str:
    """``amount`` with an explicit sign: ``+2M``, ``-500K``."""
    return ("+" if amount >= 0 else "") + format_amount(amount)
