"""Stored text made safe to print: every control character, bidi override and line separator written visibly.

Used wherever a name, a memo, an edition or a setting from the journal
reaches a terminal, a log or a spreadsheet (``banker_cli.common.shown`` is
this function).
"""

from __future__ import annotations

import unicodedata

#: Characters shown escaped wherever stored text reaches a terminal or a spreadsheet: the bidi
#: overrides and isolates and the marks that reorder a line (besides every C0/C1 control, DEL,
#: surrogates and the line and paragraph separators, found by their Unicode category).
REORDERING = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_ESCAPED_KINDS = frozenset({"Cc", "Cs", "Zl", "Zp"})


def shown(text: object) -> str:
    """``text`` (a name, a memo: anything stored) made safe to print: each control character written visibly.

    ESC becomes ``\\x1b``, a bidi override ``\\u202e``: a journal can't move the
    cursor, ring the bell, retitle the window or reverse a line on the
    banker's terminal. Everything else, accents and emoji included, is kept.

    >>> shown("Al\\x1b[2Jice\\u202e\\tX")
    'Al\\\\x1b[2Jice\\\\u202e\\\\tX'
    """
    text = str(text)
    if text.isprintable():  # the common case, quickly (spaces included)
        return text
    out = []
    for char in text:
        if char in REORDERING or unicodedata.category(char) in _ESCAPED_KINDS:
            out.append(char.encode("unicode_escape", "backslashreplace").decode("ascii"))
        else:
            out.append(char)
    return "".join(out)
