"""The packaged US edition: deeds at Electronic Banking scale, fixed amounts, lookups, and editions as data."""

import csv
from pathlib import Path

import pytest

from banker.rules.deeds import UnknownDeed, parse_edition
from cards import available_editions, load_edition
from banker.errors import BankerError, ConfigError

K, M = 1_000, 1_000_000
REFERENCE = Path(__file__).resolve().parents[1] / "fixtures" / "deeds-us.csv"  # a copy of shared/reference/deeds-us.csv
us = load_edition("us")


def test_the_us_board_has_22_streets_4_railroads_and_2_utilities():
    kinds = [d.kind for d in us.deeds]
    assert (kinds.count("street"), kinds.count("railroad"), kinds.count("utility")) == (22, 4, 2)


def test_the_us_edition_carries_the_electronic_banking_amounts():
    assert us.start_balance == 15 * M
    assert us.go_salary == 2 * M
    assert us.jail_fine == 500 * K
    assert us.income_tax == 2 * M and us.income_tax_percent == 10
    assert us.luxury_tax == 1 * M
    assert (us.houses, us.hotels, us.jail_cards) == (32, 12, 2)
    assert us.interest_percent == 10 and us.interest_round_to == 10 * K


def test_cheapest_street_costs_600k_and_boardwalk_4m():
    assert us.deed("mediterranean-avenue").price == 600 * K
    assert us.deed("boardwalk").price == 4 * M
    assert us.deed("boardwalk").rents == (500 * K, 2 * M, 6 * M, 14 * M, 17 * M, 20 * M)


def test_utilities_multiply_the_dice_by_40k_or_100k():
    assert us.deed("water-works").rents == (40 * K, 100 * K)


def test_every_deed_is_the_reference_table_times_10000():
    for row in csv.DictReader(REFERENCE.open()):
        deed = us.at(int(row["position"]))
        assert (deed.slug, deed.name, deed.group, deed.kind) == (row["slug"], row["name"], row["group"], row["kind"])
        assert deed.price == int(row["price"]) * 10_000
        assert deed.mortgage == int(row["mortgage"]) * 10_000
        assert deed.house_cost == int(row["house_cost"] or 0) * 10_000
        printed = [row[k] for k in ("rent0", "rent1", "rent2", "rent3", "rent4", "hotel") if row[k]]
        assert deed.rents == tuple(int(r) * 10_000 for r in printed)


def test_deeds_are_found_by_slug_and_by_board_position():
    assert us.deed("st-charles-place").position == 11
    assert us.at(39).slug == "boardwalk"
    assert us.at(5).name == "Reading Railroad"


def test_a_square_without_a_deed_is_named_as_such():
    with pytest.raises(UnknownDeed, match="No deed at 02"):
        us.at(2)
    with pytest.raises(UnknownDeed):
        us.deed("free-parking")
    assert issubclass(UnknownDeed, BankerError) and issubclass(UnknownDeed, LookupError)


def test_groups_list_their_deeds_in_board_order():
    assert [d.slug for d in us.group("dark-blue")] == ["park-place", "boardwalk"]
    assert len(us.group("railroad")) == 4
    assert [d.position for d in us.siblings("tennessee-avenue")] == [16, 18, 19]


def test_short_names_fit_the_oled_line():
    assert all(len(d.short) <= 11 for d in us.deeds)


def test_us_is_an_available_edition():
    assert "us" in available_editions()


def test_an_unknown_edition_is_a_config_error():
    with pytest.raises(ConfigError, match="no edition"):
        load_edition("atlantis")


def test_a_uk_edition_at_classic_scale_is_just_data():
    text = (Path(__file__).resolve().parents[2] / "cards" / "editions" / "us.toml").read_text()
    uk = parse_edition(
        text.replace('name = "us"', 'name = "uk"')
        .replace("scale = 10_000", "scale = 1")
        .replace('"Boardwalk"', '"Mayfair"')
    )
    assert uk.name == "uk"
    assert uk.deed("boardwalk").name == "Mayfair"
    assert uk.deed("boardwalk").price == 400
    assert uk.start_balance == 1500 and uk.interest_round_to == 1


def test_a_broken_edition_file_is_a_config_error():
    with pytest.raises(ConfigError):
        parse_edition('name = "x"\nscale = 1\n')
    text = (Path(__file__).resolve().parents[2] / "cards" / "editions" / "us.toml").read_text()
    with pytest.raises(ConfigError, match="rents"):
        parse_edition(text.replace("rents = [4, 10]", "rents = [4]", 1))
