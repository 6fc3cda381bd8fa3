"""``FN 8``: the game's language, picked by a digit; a ``language`` setting any player may change, like the volume.

The language is journalled (a :class:`~banker.journal.records.Setting`), so it holds
across restarts and new games in the ledger until changed; a ledger without
one plays in English. The names are shown each in its own language, so a
player finds theirs whatever the unit speaks now; the screen after the choice
is in the new language. docs/languages.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from banker.unit import views
from banker.unit.events import Key
from banker.text.i18n import LANGUAGE_KEY, LANGUAGE_NAMES, LANGUAGES, _
from banker.unit.modes.base import STAY, Ctx, Reply
from banker.journal.records import Setting
from banker.unit.screen import Screen
from banker.unit.flows.common import Flow

#: The key after ``FN`` that opens the language menu (no board square, ``01``-``39``, starts with it).
MENU_KEY = Key.D8
#: The digit that picks each language (``1`` English, ``2`` Deutsch, ...).
DIGIT_LANGUAGES = {Key(str(i)): code for i, code in enumerate(LANGUAGES, start=1)}


def _choices() -> tuple[str, ...]:
    """The languages two to a line: ``1 English 2 Deutsch``."""
    named = [f"{i} {LANGUAGE_NAMES[code]}" for i, code in enumerate(LANGUAGES, start=1)]
    return tuple(" ".join(named[i:i + 2]) for i in range(0, len(named), 2))


@dataclass(frozen=True)
class LanguageMenu(Flow):
    """After ``FN 8``: a digit picks the language; ``C`` leaves it as it is."""

    def screen(self, ctx: Ctx) -> Screen:
        return views.screen(_("Language"), *_choices())

    def press(self, ctx: Ctx, key: Key) -> Reply:
        code = DIGIT_LANGUAGES.get(key)
        if code is None:
            return ctx.refuse(views.refused(_("Language: a digit"), f"1-{len(LANGUAGES)}"), then=STAY)
        return ctx.commit(Setting(LANGUAGE_KEY, code), lambda after: views.language(after.language))
