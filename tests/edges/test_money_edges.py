"""Amounts at their edges, as a player types them and reads them back (banker/money.py)."""

import pytest

from banker.errors import AmountError
from banker.money import MAX_AMOUNT, format_amount, format_signed, parse_amount, parse_entry


@pytest.mark.parametrize("text, message", [
    ("1.0000005M", "not whole dollars: 1.0000005M"),  # half a dollar: refused, never rounded down to 1M
    ("1.0005K", "not whole dollars: 1.0005K"),
    ("0.0000001M", "not whole dollars"),
    ("1234,567", "not an amount: 1234,567"),  # a group head has 1-3 digits
    ("1234_567", "not an amount: 1234_567"),
    ("1,5M", "not an amount: 1,5M"),
    ("12,34", "not an amount"),
    ("1,234,", "not an amount"),
    ("1,,234", "not an amount"),
    (",234", "not an amount"),
    ("1.2.3M", "not an amount"),
    ("1.5X", "not an amount"),
    ("²", "not an amount"),
    ("", "not an amount"),
])
def test_a_bad_amount_is_refused_with_its_text(text, message):
    with pytest.raises(AmountError, match=message.replace(".", r"\.")):
        parse_amount(text)


@pytest.mark.parametrize("text, amount", [
    ("1.000001M", 1_000_001), ("0.000001M", 1), (".5M", 500_000), ("5.M", 5_000_000), ("1.05m", 1_050_000),
    ("1.5k", 1_500), ("123,456", 123_456), ("1,234,567", 1_234_567), ("1_000", 1_000), ("999", 999),
    ("  15M ", 15_000_000), ("1", 1),
])
def test_good_amounts_are_read_exactly(text, amount):
    assert parse_amount(text) == amount


def test_a_group_head_of_one_to_three_digits_is_read():
    assert [parse_amount(t) for t in ("1,000", "12,000", "123,000")] == [1_000, 12_000, 123_000]


def test_negative_amounts_are_refused_with_the_default_settings():
    for text in ("-500", "-1.5M", " -1K"):
        with pytest.raises(AmountError, match="not a positive amount"):
            parse_amount(text)
    assert parse_amount("-500", allow_negative=True) == -500
    assert parse_amount("-1.5M", allow_negative=True) == -1_500_000


def test_zero_is_refused_unless_allowed():
    for text in ("0", "0M", "0.0K", "0,000"):
        with pytest.raises(AmountError, match="the amount is zero"):
            parse_amount(text)
    assert parse_amount("0", allow_zero=True) == 0
    assert parse_amount("-0", allow_negative=True, allow_zero=True) == 0


def test_the_largest_amount_and_one_more():
    assert parse_amount(f"{MAX_AMOUNT:,}") == MAX_AMOUNT == 999_999_999_999
    assert parse_amount("999999.999999M") == MAX_AMOUNT
    with pytest.raises(AmountError, match="too large: 1,000,000,000,000"):
        parse_amount("1,000,000,000,000")
    with pytest.raises(AmountError, match="too large"):
        parse_amount("1000000M")
    with pytest.raises(AmountError, match="too large"):
        parse_amount(f"-{MAX_AMOUNT + 1}", allow_negative=True)


def test_thirty_two_characters_are_read_and_thirty_three_refused():
    assert parse_amount("0" * 31 + "1") == 1
    assert parse_amount("-" + "0" * 31 + "1", allow_negative=True) == -1
    with pytest.raises(AmountError, match=r"not an amount: 0{32}\.\.\."):
        parse_amount("0" * 32 + "1")


@pytest.mark.parametrize("amount, shown", [
    (1_050_000, "1.05M"), (1_005_000, "1.005M"), (1_000_500, "1.0005M"), (1_000_001, "1,000,001"),
    (10_050, "10.05K"), (1_001, "1.001K"), (1_000, "1K"), (999, "999"), (1, "1"), (0, "0"),
    (1_000_000, "1M"), (999_999, "999,999"), (99_999, "99.999K"), (12_345_000, "12.345M"),
    (123_456_000, "123,456,000"), (1_234_567_000, "1,234,567,000"), (100_000_000_000, "100,000,000,000"),
    (10_000_000_000, "10000M"), (99_999_000_000, "99999M"), (12_345_600, "12,345,600"), (12_340, "12.34K"), (123_450_000, "123.45M"),
    (12_345, "12.345K"), (123_456, "123,456"), (99_998, "99.998K"), (10_001, "10.001K"), (99_999_000, "99.999M"), (10_000, "10K"),
    (-1, "-1"), (-1_050_000, "-1.05M"),
])
def test_amounts_are_shown_exactly(amount, shown):
    assert format_amount(amount) == shown


def test_amounts_past_five_digits_are_written_in_full_and_grouped():
    """The screen shows 5 digits of an amount at most: past that the dollars are grouped in threes."""
    assert [format_amount(n) for n in (100_001, 999_999, 1_000_001)] == ["100,001", "999,999", "1,000,001"]


def test_money_is_an_int():
    for bad in (1.5, True, "5"):
        with pytest.raises(TypeError, match="money is an int"):
            format_amount(bad)


def test_signed_amounts_show_their_sign_and_zero_a_plus():
    assert format_signed(0) == "+0"
    assert format_signed(1) == "+1"
    assert format_signed(2_000_000) == "+2M"
    assert format_signed(-500_000) == "-500K"
    assert format_signed(-1) == "-1"


@pytest.mark.parametrize("typed, suffix, amount", [
    ("1.5", "M", 1_500_000), (".5", "M", 500_000), ("99999", "K", 99_999_000), ("1.0005", "M", 1_000_500),
    ("5.", "K", 5_000), ("0.001", "K", 1), ("12345", "M", 12_345_000_000),
])
def test_keypad_entries(typed, suffix, amount):
    assert parse_entry(typed, suffix) == amount


@pytest.mark.parametrize("typed, suffix, message", [
    ("", "M", "type an amount first"), (".", "K", "type an amount first"), ("123456", "K", "5 digits at most"),
    ("1.2345", "K", "not whole dollars: 1.2345K"), ("0.0005", "K", "not whole dollars"), ("0", "M", "the amount is zero"),
    ("0.000", "K", "the amount is zero"), ("1..5", "M", "not an amount: 1..5M"), ("1.5", "X", "finish with M or K"),
    ("1a", "K", "not an amount"),
])
def test_bad_keypad_entries_are_refused(typed, suffix, message):
    with pytest.raises(AmountError, match=message.replace(".", r"\.")):
        parse_entry(typed, suffix)
