"""Money: parse and format exact integer dollar amounts, the unit's way (``1.5M``, ``850K``).

This is the one place where amounts are read from text and written as text.
Amounts are ``int`` dollars; a float never touches money.
"""

from __future__ import annotations

from .errors import AmountError

#: The unit's screen shows at most this many digits of an amount.
MAX_DIGITS = 5
SUFFIXES = {"M": 1_000_000, "K": 1_000}


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
        raise AmountError("type an amount first")
    if typed.count(".") > 1 or not typed.replace(".", "").isdigit():
        raise AmountError(f"not an amount: {typed}{suffix}")
    if sum(ch.isdigit() for ch in typed) > MAX_DIGITS:
        raise AmountError(f"{MAX_DIGITS} digits at most")
    whole, _, fraction = typed.partition(".")
    unit = SUFFIXES[suffix]
    scaled = int(fraction or "0") * unit
    scale = 10 ** len(fraction)
    if scaled % scale:
        raise AmountError(f"not whole dollars: {typed}{suffix}")
    amount = int(whole or "0") * unit + scaled // scale
    if amount == 0:
        raise AmountError("the amount is zero")
    return amount


def parse_amount(text: str, *, allow_negative: bool = False, allow_zero: bool = False) -> int:
    """Read an amount written by a person: ``15M``, ``1.5M``, ``850K``, ``500``, ``15,000,000``.

    Unlike :func:`parse_entry` there is no digit limit. A leading ``-`` is
    accepted only with ``allow_negative`` (balances can be negative under a
    house rule); zero only with ``allow_zero``.
    """
    raw = text.strip().replace(",", "").replace("_", "")
    negative = raw.startswith("-")
    if negative:
        if not allow_negative:
            raise AmountError(f"not a positive amount: {text}")
        raw = raw[1:]
    suffix = raw[-1:].upper()
    if suffix in SUFFIXES:
        body = raw[:-1]
        if not body or body == "." or body.count(".") > 1 or not body.replace(".", "").isdigit():
            raise AmountError(f"not an amount: {text}")
        whole, _, fraction = body.partition(".")
        unit = SUFFIXES[suffix]
        scale = 10 ** len(fraction)
        if (int(fraction or "0") * unit) % scale:
            raise AmountError(f"not whole dollars: {text}")
        amount = int(whole or "0") * unit + int(fraction or "0") * unit // scale
    elif raw.isdigit():
        amount = int(raw)
    else:
        raise AmountError(f"not an amount: {text}")
    if amount == 0 and not allow_zero:
        raise AmountError("the amount is zero")
    return -amount if negative else amount


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
