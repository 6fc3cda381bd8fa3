"""The amount being typed on the keypad at its edges: the 5th digit, the 6th, a second point (banker/unit/entry.py)."""

import pytest

from banker.errors import AmountError
from banker.unit.entry import AmountEntry


def typed(keys: str) -> AmountEntry:
    entry = AmountEntry()
    for key in keys:
        entry = entry.type(key)
    return entry


def test_nothing_typed_shows_the_cursor_and_cannot_finish():
    entry = AmountEntry()
    assert entry.empty and entry.digits == 0 and entry.shown() == "_"
    with pytest.raises(AmountError, match="type an amount first"):
        entry.finish("M")


def test_five_digits_are_an_amount():
    entry = typed("12345")
    assert not entry.empty and entry.digits == 5 and not entry.too_long
    assert entry.shown() == "12345_" and entry.finish("K") == 12_345_000


def test_the_sixth_digit_makes_it_too_long_and_later_keys_leave_it_so():
    entry = typed("123456")
    assert entry.too_long and entry.shown() == "Too long"
    assert entry.type("7") == entry and entry.type(".") == entry
    with pytest.raises(AmountError, match="5 digits at most"):
        entry.finish("M")


def test_a_point_counts_no_digit():
    entry = typed("1.2345")
    assert entry.digits == 5 and not entry.too_long and entry.shown() == "1.2345_"
    assert entry.finish("M") == 1_234_500
    assert typed(".5").finish("M") == 500_000 and typed(".").shown() == "._"


def test_a_second_point_is_refused_and_the_entry_kept():
    entry = typed("1.5")
    with pytest.raises(AmountError, match="one point only"):
        entry.type(".")
    assert entry.typed == "1.5"


@pytest.mark.parametrize("key", ["M", "K", "", "12", "a", "-"])
def test_a_key_that_is_no_digit_or_point_is_no_amount_key(key):
    with pytest.raises(ValueError, match="not an amount key"):
        AmountEntry("1").type(key)
