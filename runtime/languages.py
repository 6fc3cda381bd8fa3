"""The game's language at run time: the gettext catalogs of the ``locales`` package, loaded once, by language code.

The core never loads a file: its screens keep each text's message id
(:mod:`banker.text.i18n`), and the shell hands :func:`translations_for` the game's
language to draw them in (``screen(panel, game, tr)``). A ledger without a
``language`` setting plays in the configured language, else English
(:func:`language_for`).
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from importlib.resources import files

from banker.fold.game import Game
from banker.text.i18n import DEFAULT_LANGUAGE, ENGLISH, LANGUAGE_KEY, LANGUAGES, Tr, language_of

DOMAIN = "banker"


@cache
def translations_for(code: str) -> Tr:
    """The catalog of ``code`` (English, or a code the unit doesn't speak: no catalog, the English texts)."""
    if code == DEFAULT_LANGUAGE or code not in LANGUAGES:
        return ENGLISH
    compiled = files("locales").joinpath(code, "LC_MESSAGES", f"{DOMAIN}.mo").read_bytes()
    return gettext.GNUTranslations(io.BytesIO(compiled))


def language_for(game: Game, configured: str | None = None) -> str:
    """The language ``game`` is shown in: its journalled ``language`` setting (``FN 8``), else ``configured``
    (the config's ``[unit] language``), else English."""
    stored = game.options.get(LANGUAGE_KEY)
    return language_of(stored if stored is not None else configured)


def translations_of(game: Game, configured: str | None = None) -> Tr:
    """The catalog to draw ``game``'s screens with (:func:`language_for`)."""
    return translations_for(language_for(game, configured))
