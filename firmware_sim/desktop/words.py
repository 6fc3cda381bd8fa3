"""The simulator window's own words (panels, tray, slots, key help, title) in the game's language: the ``sim`` texts.

Every word the window draws around the OLED is written where it is drawn as
``tr.pgettext("sim", "...")`` (``tr.npgettext("sim", ...)`` for a count), or
marked with :func:`pgettext` where it is a constant: pybabel extracts them
(``babel.cfg``) into the unit's catalogs under the gettext context ``sim``.
They are words for the desktop, drawn in pygame's font: the OLED's width test
leaves them out, and ``tests/sim/test_sim_language.py`` draws the window in every
language at every scale, with every kind of line and mark, and checks that no
word is cut to its box (each is cut with ``~`` rather than drawn beyond it;
only a journal line, with its names and memo, may be). ``tr`` is the catalog the unit's
own screen is drawn with (:func:`words_of`): the game's ``FN 8`` choice, else
the config's ``[unit] language``, else English; so a new language shows in
the panels in the very frame that chooses it. What is not translated is what
the unit's screen leaves alone too (docs/languages.md): names, amounts, the
key names printed on the unit, and the memos kept in the journal, but for
the rules' (:data:`.panel.RULE_MEMOS`: ``Bought Boardwalk``, which a
transaction read back from the journal carries only in English words).
"""

from __future__ import annotations

from banker.fold.game import Game
from banker.text.i18n import Tr
from runtime.languages import translations_of

#: The gettext context of the window's words.
CONTEXT = "sim"


def pgettext(context: str, message: str) -> str:
    """Marks ``message`` for the catalogs under ``context`` (pybabel's ``pgettext`` keyword); its value: itself."""
    return message


def say(tr: Tr, message: str, **fields: object) -> str:
    """The ``sim`` text ``message`` (English, with ``{field}`` places) in the language of ``tr``, filled."""
    pattern = tr.pgettext(CONTEXT, message)
    return pattern.format(**fields) if fields else pattern


def words_of(game: Game, configured: str | None = None) -> Tr:
    """The catalog the window draws ``game`` in: the one the unit's screen is drawn in."""
    return translations_of(game, configured)
