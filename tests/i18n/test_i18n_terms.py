"""The board's own words hold across each catalog, the voice says what the screen shows, and each language keeps
its reasons beside its catalog (locales/<code>/NOTES.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runtime.languages import translations_for

LOCALES = Path(__file__).resolve().parents[2] / "locales"

#: Each language's word for the GO square (the key keeps its printed name, GO), as its board prints it.
START = {"de": "Los", "fr": "Départ", "es": "Salida", "nl": "Start"}
#: Words a native reader threw out (issue 30) or that the board doesn't use, by language: none may come back.
NOT_THE_BOARDS = {
    "de": ("Titel", "belastet", "Belastet", "Dollarbruch", "Über GO", "Tischseite", "Haus weg", "Hotel weg",
           "beschafft Geld", "Lautstärke hoch"),
    "fr": ("Parc gratuit", "Passé par GO", "Page de table"),
    "es": ("Pasó por GO", "Semilla", "Página mesa", "Parking gratuito"),
    "nl": ("Langs GO", "Vrij parkeren", "Tafelpagina", "Huis weg", "Weelde", "gevangeniskaart"),
}


def _every_translation(code: str) -> list[str]:
    from babel.messages.pofile import read_po

    with open(LOCALES / code / "LC_MESSAGES" / "banker.po", "rb") as fh:
        catalog = read_po(fh, locale=code)
    return [s for m in catalog if m.id for s in ([m.string] if isinstance(m.string, str) else m.string)]


@pytest.mark.parametrize("code", sorted(START))
def test_the_go_square_is_the_boards_word_on_the_screen_and_in_the_voice(code):
    tr = translations_for(code)
    for shown in (tr.gettext("Passed GO"), tr.gettext("Passed GO twice"),
                  tr.pgettext("voice", "{name} passes GO and collects {amount}")):
        assert START[code] in shown and "GO" not in shown, shown
    assert tr.gettext("GO: passed GO twice").startswith("GO") and START[code] in tr.gettext("GO: passed GO twice")


@pytest.mark.parametrize("code", sorted(NOT_THE_BOARDS))
def test_no_word_a_native_reader_threw_out_comes_back(code):
    found = [(word, text) for text in _every_translation(code) for word in NOT_THE_BOARDS[code] if word in text]
    assert found == []


@pytest.mark.parametrize("code", sorted(START))
def test_the_voice_says_the_volume_and_raising_cash_in_the_screens_words(code):
    tr = translations_for(code)
    for level in ("off", "low", "medium", "high"):
        spoken = tr.pgettext("voice", f"Volume {level}")
        assert tr.gettext(level).casefold() in spoken.casefold(), (level, spoken)
    shown = tr.gettext("0: raise cash").split(":", 1)[1].strip()
    assert shown.casefold() in tr.pgettext("voice", "Zero raises cash").casefold()


@pytest.mark.parametrize("code", sorted(START))
def test_each_language_keeps_its_reasons_beside_its_catalog(code):
    notes = (LOCALES / code / "NOTES.md").read_text(encoding="utf-8")
    assert START[code] in notes and "Kept short on purpose" in notes


def test_every_language_the_unit_speaks_has_its_boards_words_here():
    from banker.text.i18n import LANGUAGES

    assert set(START) == set(LANGUAGES) - {"en"}, "a new language: add its GO square to START (docs/languages.md)"
