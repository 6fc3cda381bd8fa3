"""The packaged editions: every board parses with 28 deeds on the US board's squares, its own names, short names that
fit the OLED line, ASCII slugs, the language it suggests and the names of its other squares."""

from pathlib import Path

import pytest

from banker.errors import ConfigError
from banker.rules.deeds import SQUARE_NAMES, parse_edition
from cards import available_editions, load_edition

EDITIONS = ("us", "uk", "de", "fr", "es", "nl")
ENDS = {"us": ("Mediterranean Avenue", "Boardwalk"), "uk": ("Old Kent Road", "Mayfair"),
        "de": ("Badstraße", "Schlossallee"), "fr": ("Boulevard de Belleville", "Rue de la Paix"),
        "es": ("Ronda de Valencia", "Paseo del Prado"), "nl": ("Dorpsstraat, Ons Dorp", "Kalverstraat, Amsterdam")}
LANGUAGE = {"us": "en", "uk": "en", "de": "de", "fr": "fr", "es": "es", "nl": "nl"}
US_TEXT = (Path(__file__).resolve().parents[2] / "cards" / "editions" / "us.toml").read_text(encoding="utf-8")


def test_every_edition_of_the_units_languages_is_packaged():
    assert set(EDITIONS) <= set(available_editions())


@pytest.mark.parametrize("name", EDITIONS)
def test_each_board_has_28_deeds_with_its_own_names_at_squares_1_and_39(name):
    board = load_edition(name)
    assert board.name == name and len(board.deeds) == 28
    assert (board.at(1).name, board.at(39).name) == ENDS[name]


@pytest.mark.parametrize("name", EDITIONS)
def test_each_short_name_fits_the_oled_line(name):
    for deed in load_edition(name).deeds:
        assert 0 < len(deed.short) <= 11, deed.short
        assert len("Mortgaged " + deed.short) <= 21


@pytest.mark.parametrize("name", EDITIONS)
def test_each_short_name_is_drawn_no_wider_than_the_sample_every_translation_is_checked_with(name):
    """tests/i18n checks that every text of every language fits its line filled with an 11-letter short name
    ("Vermont Ave"): every board's short names are no wider in the OLED's font, its letters all drawn."""
    from render.frame import drawable, font

    sample = font().getlength("Vermont Ave")
    for deed in load_edition(name).deeds:
        assert drawable(deed.short) == deed.short, deed.short  # Latin-1: no letter drawn as another
        assert font().getlength(deed.short) <= sample, deed.short


@pytest.mark.parametrize("name", EDITIONS)
def test_slugs_are_unique_lowercase_ascii_with_hyphens(name):
    slugs = [d.slug for d in load_edition(name).deeds]
    assert len(set(slugs)) == 28
    for slug in slugs:
        assert slug.isascii() and slug == slug.lower() and slug.replace("-", "").isalnum(), slug


@pytest.mark.parametrize("name", EDITIONS)
def test_the_groups_kinds_and_amounts_stand_where_the_us_board_has_them(name):
    us, board = load_edition("us"), load_edition(name)
    assert [(d.position, d.group, d.kind) for d in board.deeds] == [(d.position, d.group, d.kind) for d in us.deeds]
    assert board.at(39).price == 4_000_000 and board.at(1).price == 600_000


@pytest.mark.parametrize("name", EDITIONS)
def test_each_edition_suggests_its_language_and_names_its_other_squares(name):
    board = load_edition(name)
    assert board.language == LANGUAGE[name]
    assert set(board.squares) == set(SQUARE_NAMES)
    assert all(text.strip() for text in board.squares.values())


def test_the_boards_squares_are_in_their_own_words():
    assert load_edition("de").squares["go"] == "Los"
    assert load_edition("uk").squares["luxury_tax"] == "Super Tax"
    assert load_edition("fr").squares["community_chest"] == "Caisse de communauté"
    assert load_edition("us").squares == SQUARE_NAMES


def test_an_edition_without_language_or_squares_is_english():
    text = US_TEXT.replace('language = "en"\n', "")
    text = text[:text.index("[squares]")] + text[text.index("[[deeds]]"):]
    board = parse_edition(text)
    assert board.language == "en" and board.squares["free_parking"] == "Free Parking"


def test_an_unknown_square_or_language_is_refused():
    with pytest.raises(ConfigError, match="unknown square 'parking_lot'"):
        parse_edition(US_TEXT.replace('chance = "Chance"', 'parking_lot = "Parking"'))
    with pytest.raises(ConfigError, match="language"):
        parse_edition(US_TEXT.replace('language = "en"', 'language = "xx"'))
