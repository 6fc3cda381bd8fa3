"""Amounts as players type them and as the unit shows them: exact, never rounded."""

import pytest
from hypothesis import given, strategies as st

from banker.errors import AmountError
from banker.money import format_amount, parse_amount, parse_entry


@pytest.mark.parametrize(
    "typed, suffix, dollars",
    [("1.5", "M", 1_500_000), ("850", "K", 850_000), (".5", "M", 500_000), ("15", "M", 15_000_000),
     ("20", "K", 20_000), ("1.2345", "M", 1_234_500), ("99999", "K", 99_999_000), ("1.", "M", 1_000_000)],
)
def test_keypad_entries_are_exact_dollars(typed, suffix, dollars):
    assert parse_entry(typed, suffix) == dollars


@pytest.mark.parametrize(
    "typed, suffix, message",
    [("0", "M", "zero"), ("0.0", "K", "zero"), ("1.2345", "K", "not whole dollars"), ("", "M", "type an amount"),
     (".", "K", "type an amount"), ("1.2.3", "M", "not an amount"), ("123456", "K", "5 digits"), ("1", "X", "M or K")],
)
def test_bad_entries_are_refused_with_a_reason(typed, suffix, message):
    with pytest.raises(AmountError, match=message):
        parse_entry(typed, suffix)


@pytest.mark.parametrize(
    "dollars, shown",
    [(15_000_000, "15M"), (1_500_000, "1.5M"), (14_151_000, "14.151M"), (850_000, "850K"), (5_500, "5.5K"),
     (500, "500"), (0, "0"), (-500_000, "-500K"), (123_456_789, "123,456,789"), (1_234_567, "1,234,567"),
     (100_000_000, "100M"), (12_345, "12.345K")],
)
def test_amounts_are_shown_the_units_way(dollars, shown):
    assert format_amount(dollars) == shown


def test_money_is_never_a_float():
    with pytest.raises(TypeError):
        format_amount(1.5)


@pytest.mark.parametrize("text, dollars", [("15M", 15_000_000), ("15,000,000", 15_000_000), ("1.5m", 1_500_000), ("500", 500)])
def test_written_amounts(text, dollars):
    assert parse_amount(text) == dollars


def test_negative_written_amounts_only_when_allowed():
    assert parse_amount("-500K", allow_negative=True) == -500_000
    with pytest.raises(AmountError):
        parse_amount("-500K")


@given(st.integers(min_value=-10**12, max_value=10**12))
def test_what_is_shown_reads_back_to_the_same_amount(dollars):
    assert parse_amount(format_amount(dollars), allow_negative=True, allow_zero=True) == dollars
