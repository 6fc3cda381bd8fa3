"""The table page's own words in the game's language: the texts of page.html and page.js (speech.js inlined in it), and the journal's sentences.

Every text the page shows is written here (or in :mod:`web.journal`) as
``pgettext("page", "...")``: pybabel extracts it into the same catalogs as
the unit's screens (docs/languages.md), under the gettext context ``page``
(words for a browser, not for the OLED: the width test leaves them out).
:func:`texts` is the table ``state()['texts']`` hands the page: each English
text to its translation; page.js looks its words up there and falls back to
the English text (docs/web.md). ``{field}`` places are filled by the page.
"""

from __future__ import annotations

from functools import cache

from banker.text.i18n import Tr
from runtime.languages import translations_for

CONTEXT = "page"


def pgettext(context: str, message: str) -> str:
    """Marks ``message`` for the catalogs under ``context`` (pybabel's ``pgettext`` keyword); its value: itself."""
    return message


#: Every word page.html and page.js show, in English (the page's keys).
PAGE_TEXTS = (
    pgettext("page", "Monopoly Bank"),
    pgettext("page", "Monopoly Bank: the table"),
    pgettext("page", "Connecting to the unit…"),
    pgettext("page", "Connecting"),
    pgettext("page", "Live"),
    pgettext("page", "Offline"),
    pgettext("page", "Refused"),
    pgettext("page", "Lost the unit. Reconnecting…"),
    pgettext("page", "This page's access code is no longer valid: scan the QR code on the unit again (FN K)."),
    pgettext("page", "Read aloud"),
    pgettext("page", "on"),
    pgettext("page", "off"),
    pgettext("page", "Balances"),
    pgettext("page", "Deeds"),
    pgettext("page", "Bank"),
    pgettext("page", "Standings"),
    pgettext("page", "End value: cash, deeds at their price (mortgaged at half) and buildings at cost: how a short "
                     "or time-limit game is decided."),
    pgettext("page", "Worth over the game"),
    pgettext("page", "Journal"),
    pgettext("page", "Auction"),
    pgettext("page", "Deal"),
    pgettext("page", "No game has started yet"),
    pgettext("page", "Game {id}"),
    pgettext("page", "{n} transactions"),
    pgettext("page", "{n} bankrupt"),
    pgettext("page", "Free Parking"),
    pgettext("page", "worth {amount}"),
    pgettext("page", "1 deed"),
    pgettext("page", "{n} deeds"),
    pgettext("page", "1 jail card"),
    pgettext("page", "{n} jail cards"),
    pgettext("page", "out"),
    pgettext("page", "No players enrolled yet"),
    pgettext("page", "HOTEL"),
    pgettext("page", "MORTGAGED"),
    pgettext("page", "whole group"),
    pgettext("page", "Every deed is still with the bank."),
    pgettext("page", "Houses"),
    pgettext("page", "Hotels"),
    pgettext("page", "Unsold deeds"),
    pgettext("page", "Jail cards"),
    pgettext("page", "Nobody is in the game"),
    pgettext("page", "Last"),
    pgettext("page", "undone"),
    pgettext("page", "undoes #{id}"),
    pgettext("page", "Nothing yet"),
    pgettext("page", "{name} gives"),
    pgettext("page", "nothing yet"),
    pgettext("page", "Deal: {first} and {second}"),
    pgettext("page", "Agreed: {names}"),
    pgettext("page", "{items} and {last}"),
    pgettext("page", "(price {amount})"),
    pgettext("page", "No bid"),
    pgettext("page", "{n} s left"),
    pgettext("page", "{name} has {amount}."),
    pgettext("page", "Reading each transaction aloud."),
    pgettext("page", "Brown"),
    pgettext("page", "Light blue"),
    pgettext("page", "Pink"),
    pgettext("page", "Orange"),
    pgettext("page", "Red"),
    pgettext("page", "Yellow"),
    pgettext("page", "Green"),
    pgettext("page", "Dark blue"),
    pgettext("page", "Railroads"),
    pgettext("page", "Utilities"),
    pgettext("page", "Going once!"),
    pgettext("page", "Going twice!"),
    pgettext("page", "{amount} dollars"),
    pgettext("page", "Free Parking pot: {amount}"),
    pgettext("page", "{group}: {n} of {m}"),
    pgettext("page", "{n} of {m} houses left"),
    pgettext("page", "{n} of {m} hotels left"),
    pgettext("page", "{n} deeds unsold"),
    pgettext("page", "{n} Get Out of Jail Free cards in the decks"),
    pgettext("page", "a Get Out of Jail Free card"),
    pgettext("page", "a hotel"),
    pgettext("page", "1 house"),
    pgettext("page", "{n} houses"),
    pgettext("page", "mortgaged"),
    pgettext("page", "{n} Get Out of Jail Free cards"),
    pgettext("page", "Total worth of each player over the game"),
    pgettext("page", "Cash, deeds and buildings after each of {n} transactions. Now: {worths}."),
    pgettext("page", "Touch or click the page once to let this browser speak."),
    pgettext("page", "This browser cannot speak."),
)

#: What the page says while the unit's backup stick (the second backup folder) can't take a backup, by its cause
#: (:class:`store.backup_schedule.StickProblem`); play goes on. Sent translated in the state's ``stick`` (web.view).
STICK_TEXTS = {
    "full": pgettext("page", "The backup stick is full: the game is saved on the unit's card. Free space on the stick."),
    "read-only": pgettext("page", "The backup stick is read-only: the game is saved on the unit's card. Unlock its "
                                  "write-protect switch."),
    "failing": pgettext("page", "The backup stick is failing: the game is saved on the unit's card. Use another stick."),
    "missing": pgettext("page", "The backup stick is not there: the game is saved on the unit's card. Plug it in again."),
}


def say(tr: Tr, message: str) -> str:
    """``message`` (a ``page`` text) in the language of ``tr``."""
    return tr.pgettext(CONTEXT, message)  # type: ignore[attr-defined]  (GNUTranslations and NullTranslations have it)


def words(tr: Tr, message: str, **fields: object) -> str:
    """``message`` (a ``page`` text) in the language of ``tr``, its ``{field}`` places filled."""
    return say(tr, message).format(**fields)


@cache
def texts(code: str) -> dict[str, str]:
    """The page's words in the language ``code``: each English text to its translation (English: to itself)."""
    tr = translations_for(code)  # English for a code the unit doesn't speak
    return {message: say(tr, message) for message in PAGE_TEXTS}
