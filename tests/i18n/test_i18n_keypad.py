"""The game's language on the unit: FN 8 picks it, it is journalled like the volume, the screens follow it, and a
ledger without one plays in English."""

from __future__ import annotations

import pytest

from banker.fold.authority import hash_pin, needs_authority
from banker.errors import Refused
from banker.fold.game import apply
from banker.text.i18n import ENGLISH, LANGUAGES, _, localized
from banker.journal.records import PinChange, Setting
from banker.unit.step import screen
from render.frame import render_image
from runtime.languages import language_for, translations_for, translations_of
from runtime.ledger import Ledger


def shown(table) -> str:
    """The screen as the unit draws it: in the game's language (what the shell hands ``screen``)."""
    shell = table.shell
    game = shell.ledger.game()
    return " | ".join(screen(shell.panel, game, translations_of(game)).lines)


def test_fn_fn_lists_the_languages_each_in_its_own_name(table):
    table.keys("FN", "8")
    assert table.shown == "Language | 1 English 2 Deutsch | 3 Français 4 Español | 5 Nederlands"


def test_switching_to_german_shows_german_screens(table):
    table.keys("FN", "8", "2")
    assert table.ledger.game().language == "de"
    assert shown(table) == "Sprache | Deutsch"
    table.press("C")
    assert shown(table) == "Monopoly-Bank | Karte auflegen | + links  - rechts"
    table.insert("right", "Alice")
    table.press("2")
    assert shown(table) == "Alice an Bank | 2_ | dann M oder K"
    table.press("M")
    assert shown(table) == "Alice -2M | 13M | Alice zahlte Bank"
    table.keys("FN", "8")
    assert shown(table).startswith("Sprache | 1 English 2 Deutsch")


def test_a_refusal_is_shown_in_the_games_language(table):
    table.keys("FN", "8", "3")
    table.type("5M")
    assert shown(table).startswith("Refusé | D'abord une carte")  # no card on a reader
    table.press("C")
    table.insert("right", "Alice")
    table.type("20M")
    assert shown(table) == "Refusé | Alice - 5M | Solde 15M | 0 : trouver l'argent"


@pytest.mark.parametrize("digit, code", [("1", "en"), ("2", "de"), ("3", "fr"), ("4", "es"), ("5", "nl")])
def test_each_digit_picks_its_language_and_the_choice_is_drawn(table, digit, code):
    table.keys("FN", "8", digit)
    assert table.ledger.game().language == code
    render_image(screen(table.shell.panel, table.ledger.game(), translations_for(code)))  # the font draws it


def test_fn_0_8_is_still_the_deed_on_square_08(table):
    """No board square starts with 8: FN 8 is free for the language, FN 0 8 stays Vermont Avenue."""
    table.keys("FN", "0", "8")
    assert "Vermont" in table.shown


def test_any_other_key_is_refused_and_c_leaves_the_language_as_it_was(table):
    table.keys("FN", "8", "9")
    assert table.shown.startswith("Refused | Language: a digit | 1-5")
    table.press("C")
    assert table.ledger.game().language == "en"


def test_the_language_is_journalled_and_holds_after_a_restart(store, table):
    table.keys("FN", "8", "5")
    with Ledger(store) as reopened:
        assert reopened.game().language == "nl" and reopened.game().options["language"] == "nl"


def test_any_player_may_change_it_like_the_volume(ledger, table):
    ledger.commit(PinChange(hash_pin("2468", b"0123456789abcdef")))
    assert not needs_authority(ledger.game(), Setting("language", "de"))
    table.keys("FN", "8", "2")
    assert ledger.game().language == "de"


def test_a_language_the_unit_does_not_speak_is_refused(ledger):
    with pytest.raises(Refused, match="language 'xx'"):
        apply(ledger.game(), Setting("language", "xx"))


def test_a_ledger_without_a_language_plays_in_english(table):
    """Old ledgers have no language setting: English, or the config's language until one is chosen."""
    game = table.ledger.game()
    assert "language" not in game.options and game.language == "en"
    assert translations_of(game) is ENGLISH and shown(table) == table.shown
    assert language_for(game, configured="de") == "de" and language_for(game, configured="xx") == "en"
    table.keys("FN", "8", "1")
    assert language_for(table.ledger.game(), configured="de") == "en"  # chosen on the unit: it wins


def test_an_english_screen_is_the_english_text_as_before():
    """The texts keep their English value: tests, scripts, the CLI and the journal read English."""
    text = _("{name} pays bank", name="Bob")
    assert text == "Bob pays bank" and str(text) == "Bob pays bank" and type(str(text)) is str
    assert localized((text,), ENGLISH) == ("Bob pays bank",)


def test_every_language_has_its_catalog():
    for code in LANGUAGES:
        translations_for(code).gettext("Insert a card")
    assert translations_for("de").gettext("Insert a card") == "Karte auflegen"
