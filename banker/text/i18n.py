"""The unit's words in the players' language: shown texts that keep their message id, translated when drawn.

A view writes each line it shows with :func:`_` (or :func:`_n` for a count)::

    _("{name} pays bank", name=card.name)
    _n("{n} player", "{n} players", len(cards))

The value is the English text, an ordinary ``str`` (tests, keypad scripts,
the CLI and error messages read English as before), that also keeps its
gettext message id and its fields. :func:`localized` turns a screen's texts
into the game's language with a :class:`Tr`: a :class:`gettext.GNUTranslations`
the runtime loads from the ``locales/`` catalogs (``runtime/languages.py``);
:data:`ENGLISH` is no catalog at all. Nothing here reads a file or keeps
state: the catalog is passed in, and the screen kept on the panel (a
message) stays a value that is translated each time it is drawn, so a new
language shows at once. Amounts keep the unit's M/K notation in every
language. ``docs/languages.md`` says how to add a language.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from types import MappingProxyType
from typing import Protocol

#: The languages the unit speaks, in the order the ``FN 8`` key steps through them.
#: Characters that fit on one line of the unit's 128-pixel panel in the small font: a memo is cut to it too.
LINE_WIDTH = 21

LANGUAGES = ("en", "de", "fr", "es", "nl")
#: Each language by its own name, as the unit shows it.
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español", "nl": "Nederlands"}
#: The game's language when its ledger has none (old ledgers): English.
DEFAULT_LANGUAGE = "en"
#: The ``Setting`` record's key for the game's language.
LANGUAGE_KEY = "language"


class Tr(Protocol):
    """A catalog of translations: what :class:`gettext.GNUTranslations` offers."""

    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...

    def npgettext(self, context: str, singular: str, plural: str, n: int, /) -> str: ...


#: English: no catalog, the message ids are the English texts.
ENGLISH: Tr = gettext.NullTranslations()


class Text(str):
    """A shown text: its English value, and its message id (``plural`` and ``n`` for a count) and fields, for
    :meth:`translated`. ``width``: the characters the line it is shown on holds (a longer text is cut with ``~``,
    in whatever language)."""

    msgid: str
    fields: Mapping[str, object]
    plural: str | None
    n: int | None
    width: int | None

    def __new__(cls, msgid: str, fields: Mapping[str, object], plural: str | None = None, n: int | None = None,
                width: int | None = None) -> Text:
        pattern = msgid if plural is None or n == 1 else plural
        english = cut(pattern.format(**fields) if fields else pattern, width)
        self = super().__new__(cls, english)
        self.msgid, self.fields, self.plural, self.n, self.width = msgid, fields, plural, n, width
        return self

    def __getnewargs__(self) -> tuple:
        return self.msgid, dict(self.fields), self.plural, self.n, self.width

    def fitted(self, width: int) -> Text:
        """This text, cut to ``width`` characters when shown (in any language)."""
        fitted = str.__new__(Text, cut(str(self), width))
        fitted.msgid, fitted.fields, fitted.plural, fitted.n, fitted.width = (self.msgid, self.fields, self.plural,
                                                                             self.n, width)
        return fitted

    def translated(self, tr: Tr) -> str:
        """The text in the language of ``tr`` (its fields translated too, when they are texts)."""
        if tr is ENGLISH:
            return str(self)  # the English value, cut as it is shown
        if self.plural is None:
            pattern = tr.gettext(self.msgid)
        else:
            pattern = tr.ngettext(self.msgid, self.plural, self.n if self.n is not None else 1)
        return cut(pattern.format(**{k: translate(v, tr) for k, v in self.fields.items()}), self.width)


class _Composed(Text):
    """A line laid out from ``parts`` (texts or not) once they are in the language shown, ``width`` characters wide:
    ``how`` is ``"spread"`` (the first part at the start, the second at the end) or ``"joined"`` (two spaces apart
    when that fits, else one)."""

    def __new__(cls, how: str, parts: tuple[str, ...], width: int) -> _Composed:
        self = str.__new__(cls, _compose(how, [str(p) for p in parts], width))
        self.msgid, self.fields, self.plural, self.n, self.width = "", MappingProxyType({}), None, None, width
        self.how, self.parts = how, tuple(parts)
        return self

    def __getnewargs__(self) -> tuple:
        return self.how, self.parts, self.width

    def fitted(self, width: int) -> Text:
        return self

    def translated(self, tr: Tr) -> str:
        return _compose(self.how, [str(translate(p, tr)) for p in self.parts], self.width or 0)


def spread(left: str, right: str, width: int) -> Text:
    """A line of ``width`` characters: ``left`` (cut to leave a space) and ``right`` at the end (``Alice gives
    1/2``), in any language."""
    return _Composed("spread", (left, right), width)


def joined(*parts: str, width: int) -> Text:
    """``parts`` on one line, two spaces apart when that fits ``width``, else one, in any language."""
    return _Composed("joined", parts, width)


def _compose(how: str, parts: list[str], width: int) -> str:
    if how == "spread":
        left, right = parts
        return left[: width - len(right) - 1].ljust(width - len(right)) + right
    line = one_line(parts, width)
    return cut(line, width) if width else line  # a line wider than the panel is cut as the panel shows it


def one_line(parts, width: int) -> str:
    """``parts`` two spaces apart when that fits ``width``, else one."""
    wide = "  ".join(parts)
    return wide if len(wide) <= width else " ".join(parts)


def _(msgid: str, /, **fields: object) -> Text:
    """A text to show: ``msgid`` (English, with ``{field}`` places) and its fields."""
    return Text(msgid, fields)


def _n(singular: str, plural: str, n: int, /, **fields: object) -> Text:
    """A text with a count ``n`` (the field ``{n}``): ``singular`` or ``plural`` as the language's rules say."""
    return Text(singular, {"n": n, **fields}, plural, n)


def N_(msgid: str) -> str:  # noqa: N802  (gettext's name for the marker)
    """Marks ``msgid`` for the catalogs where it is written (a table of words); ``_(table[i])`` shows it."""
    return msgid


def translate(text: object, tr: Tr) -> object:
    """``text`` in the language of ``tr`` when it is a :class:`Text`; anything else (a name, an amount) as it is."""
    return text.translated(tr) if isinstance(text, Text) else text


def localized(lines: tuple[str, ...], tr: Tr) -> tuple[str, ...]:
    """A screen's ``lines`` in the language of ``tr``, as plain strings."""
    return tuple(line.translated(tr) if isinstance(line, Text) else line for line in lines)


def language_of(stored: str | None) -> str:
    """The language a ``language`` setting names, English when it names none the unit speaks."""
    return stored if stored in LANGUAGES else DEFAULT_LANGUAGE


def cut(text: str, width: int | None) -> str:
    """``text`` cut to ``width`` characters, the cut marked with ``~`` (None: as it is)."""
    return text if width is None or len(text) <= width else text[: width - 1] + "~"
