"""The catalogs: every shown text is in every language, keeps its fields, fits the OLED in its font, and the
committed .mo files are what the .po files compile to (docs/languages.md)."""

from __future__ import annotations

import io
from pathlib import Path
from string import Formatter

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from banker.text.i18n import LANGUAGES
from banker.text.i18n import LINE_WIDTH
from render.frame import _big_text, font
from runtime.languages import translations_for

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "locales"
TRANSLATED = [code for code in LANGUAGES if code != "en"]
#: What babel.cfg and docs/languages.md extract with: Babel's own keywords (gettext, ngettext, pgettext, ...) and ours.
KEYWORDS = {**DEFAULT_KEYWORDS, "_": None, "_n": (1, 2), "N_": None}
#: A character's advance in the unit's font, in pixels (Pillow's built-in bitmap font).
ADVANCE = 6
#: Long values for the fields, as the unit fills them (a name of 9, an amount of 7, a deed's short name of 11).
SAMPLES = {"name": "Player 10", "payer": "Player 10", "payee": "Player 11", "to": "Player 11", "amount": "12.345M",
           "cost": "12.345M", "pot": "12.345M", "deed": "Vermont Ave", "group": "light-blue", "typed": "12.5",
           "seconds": 30, "n": 10, "id": 123, "reverses": 123, "game": 12, "key": "GO", "sign": "+", "square": "3",
           "position": "39", "most": 3, "uid": "04A1B2C3D4E5F6", "page": 2, "pages": 3, "hours": 2, "minutes": "30",
           "players": 8, "each": 2, "suffix": "K", "rate": "10%",
           "names": "Player 10", "limit": "90 min"}


def _catalog(code: str):
    with open(LOCALES / code / "LC_MESSAGES" / "banker.po", "rb") as fh:
        return read_po(fh, locale=code)


def _template():
    with open(LOCALES / "banker.pot", "rb") as fh:
        return read_po(fh)


def _key(msgid, context: str | None = None) -> tuple:
    """A message as the catalogs key it: its context (the voice's texts: ``"voice"``) and its id (or ids)."""
    return context, msgid if isinstance(msgid, str) else tuple(msgid)


def _fields(text: str) -> set[str]:
    return {name for _literal, name, _spec, _conv in Formatter().parse(text) if name}


def _samples(code: str) -> dict:
    """The sample fields, with the ones that are texts themselves in the language of ``code``."""
    tr = translations_for(code)
    return {**SAMPLES, "rules": tr.gettext("short game"), "sums": tr.gettext("show"),
            "deeds": tr.ngettext("{n} deed", "{n} deeds", 2).format(n=2), "cards": tr.ngettext("card", "cards", 2)}


def _width(message) -> int:
    """The characters the line a text is shown on holds: 10 on the big line and beside a QR code (so marked for
    the translators), else 21."""
    return 10 if any("10 characters" in comment for comment in message.auto_comments) else LINE_WIDTH


def _on_the_screen(message) -> bool:
    """A text the OLED shows: not the voice's (pgettext ``voice``), the table page's (pgettext ``page``, or a
    core's text for the page's live view, so marked for the translators) nor the desktop simulator's window's
    (pgettext ``sim``: tests/sim/test_sim_language.py checks they fit their boxes)."""
    return not ((message.context or "").startswith(("voice", "page", "sim"))
                or any("table page" in comment for comment in message.auto_comments))


def _forms(message) -> list[tuple[str, dict]]:
    """Each form of ``message`` (one, or singular and plural) with the count it is shown for."""
    strings = [message.id] if isinstance(message.id, str) else list(message.id)
    return [(s, {"n": 1 if i == 0 and len(strings) > 1 else 10}) for i, s in enumerate(strings)]


def test_the_template_holds_every_shown_text_of_the_source():
    """Run pybabel extract (docs/languages.md) when this fails: a text was added, changed or removed. The source
    is what babel.cfg names, as pybabel extract reads it."""
    with open(ROOT / "babel.cfg") as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    source = {_key(msgid, context) for _file, _line, msgid, _comments, context in
              extract_from_dir(str(ROOT), method_map, options_map, keywords=KEYWORDS, comment_tags=("Translators:",))}
    template = {_key(m.id, m.context) for m in _template() if m.id}
    assert source - template == set(), "texts missing from locales/banker.pot"
    assert template - source == set(), "texts in locales/banker.pot that the source no longer shows"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_text_is_translated_in_every_catalog(code):
    catalog = _catalog(code)
    template = {_key(m.id, m.context) for m in _template() if m.id}
    translated = {_key(m.id, m.context) for m in catalog if m.id and not m.fuzzy and all(
        [m.string] if isinstance(m.string, str) else m.string)}
    assert template - translated == set(), f"not translated in {code}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_each_translation_keeps_the_fields_of_its_text(code):
    wrong = []
    for m in _catalog(code):
        if not m.id:
            continue
        wanted = set().union(*(_fields(s) for s in ([m.id] if isinstance(m.id, str) else m.id)))
        for string in [m.string] if isinstance(m.string, str) else m.string:
            if _fields(string) - wanted or (_fields(string) | {"n"}) < (wanted | {"n"}):
                wrong.append((m.id, string))
    assert wrong == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_committed_mo_is_the_po_compiled(code):
    fresh = io.BytesIO()
    write_mo(fresh, _catalog(code))
    committed = (LOCALES / code / "LC_MESSAGES" / "banker.mo").read_bytes()
    assert fresh.getvalue() == committed, f"run pybabel compile -d locales -D banker ({code})"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_translation_fits_its_line_in_the_units_font(code):
    """Each text, filled with long values, drawn in the OLED's font: no wider than its line (128 pixels, 21
    characters; 10 on the big line and beside a QR code), or than the English text when that is already wider."""
    samples, too_wide = _samples(code), []
    english = {**_samples("en")}
    for m in _catalog(code):
        if not m.id or not _on_the_screen(m):  # the voice's and the page's texts: no line of the OLED
            continue
        width = _width(m)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        forms = _forms(m)
        for index, string in enumerate(strings):
            msgid, count = forms[min(index, len(forms) - 1)]
            shown = string.format(**{**samples, **count})
            english_px = font().getlength(msgid.format(**{**english, **count}))
            px = _big_text(shown).width // 2 if width == 10 else font().getlength(shown)
            if px > max(width * ADVANCE, english_px):
                too_wide.append(f"{shown!r} ({len(shown)} > {max(width, round(english_px) // ADVANCE)})")
    assert too_wide == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_font_draws_every_letter_the_catalog_uses(code):
    """Pillow's bitmap font is Latin-1: every letter of the catalog is in it and drawn with ink."""
    letters = set()
    for m in _catalog(code):
        if m.id and m.context != "page":  # the table page's words: drawn by the browser, in its fonts
            for string in [m.string] if isinstance(m.string, str) else m.string:
                letters |= set(string)
    blank = sorted(ch for ch in letters - {" "} if ord(ch) > 255 or font().getbbox(ch)[2] == 0
                   or _ink(ch) == 0)
    assert blank == []


def _ink(ch: str) -> int:
    from PIL import Image, ImageDraw

    image = Image.new("1", (8, 12), 0)
    ImageDraw.Draw(image).text((0, 0), ch, font=font(), fill=1)
    return image.getbbox() is not None and sum(image.histogram()[1:])


def test_a_language_the_unit_does_not_speak_is_english():
    assert translations_for("xx").gettext("Insert a card") == "Insert a card"
