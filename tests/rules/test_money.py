"""Amounts as players type them and as the unit shows them: exact, never rounded."""

import pytest
from hypothesis import given, strategies as st

from banker.errors import AmountError
from banker.money import MAX_AMOUNT, format_amount, parse_amount, parse_entry


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


@pytest.mark.parametrize("text, dollars", [("15M", 15_000_000), ("15,000,000", 15_000_000), ("1.5m", 1_500_000),
                                           ("500", 500), ("1_500_000", 1_500_000), (" 15M ", 15_000_000)])
def test_written_amounts(text, dollars):
    assert parse_amount(text) == dollars


def test_negative_written_amounts_only_when_allowed():
    assert parse_amount("-500K", allow_negative=True) == -500_000
    with pytest.raises(AmountError):
        parse_amount("-500K")


@given(st.integers(min_value=-MAX_AMOUNT, max_value=MAX_AMOUNT))
def test_what_is_shown_reads_back_to_the_same_amount(dollars):
    assert parse_amount(format_amount(dollars), allow_negative=True, allow_zero=True) == dollars


@pytest.mark.parametrize("text", ["1,5M", "1,50,000", "1,500K", "15,000,00", ",500", "1__500", "1,500_000", "²",
                                  "12²", "١٢M", "١٢", "１２M", "1e6", "0x10", "+5M", "15 M", "", " ", "M", ".M", "--5",
                                  "9" * 5000])
def test_no_lenient_amounts(text):
    with pytest.raises(AmountError):
        parse_amount(text, allow_negative=True)


def test_nothing_past_the_ledgers_range():
    assert parse_amount(f"{MAX_AMOUNT:,}") == MAX_AMOUNT
    for text in (str(MAX_AMOUNT + 1), "1000000M", "2" + "0" * 30, str(2**63), str(2**64)):
        with pytest.raises(AmountError, match="at most 999,999,999,999 dollars"):
            parse_amount(text, allow_negative=True)


@pytest.mark.parametrize("typed", ["١", "²", "٣.٥"])
def test_a_keypad_entry_is_ascii_digits_only(typed):
    with pytest.raises(AmountError):
        parse_entry(typed, "M")


def test_a_sixth_digit_spoils_the_entry_instead_of_being_dropped():
    from banker.unit.entry import AmountEntry

    entry = AmountEntry()
    for key in "12345":
        entry = entry.type(key)
    assert entry.finish("K") == 12_345_000 and not entry.too_long
    entry = entry.type("6").type("7").type(".")
    assert entry.too_long and entry.shown() == "Too long"
    with pytest.raises(AmountError, match="5 digits at most"):
        entry.finish("K")
    with pytest.raises(ValueError):
        AmountEntry().type("²")


def test_a_sixth_digit_pays_nothing_on_the_unit(table):
    table.insert("left", "Alice")
    table.type("123456")
    assert "Too long" in table.shown
    table.press("K")
    assert "5 digits at most" in table.shown and table.tones()[-1] == "refusal"
    assert table.ledger.game().balances_by_name()["Alice"] == 15_000_000
    table.type("12345K")
    assert table.ledger.game().balances_by_name()["Alice"] == 27_345_000


def test_only_ascii_digits_make_a_pin():
    from banker.fold.authority import hash_pin, is_pin, pin_matches

    stored = hash_pin("2468", b"salt")
    assert is_pin("2468") and pin_matches("2468", stored)
    for text in ("٢٤٦٨", "２４６８", "24 68", "246", "123456789", "²²²²", ""):
        assert not is_pin(text) and not pin_matches(text, stored)
        with pytest.raises(AmountError, match="4 to 8 digits 0-9"):
            hash_pin(text, b"salt")
