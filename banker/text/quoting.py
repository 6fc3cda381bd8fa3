"""Words on a line of a keypad script or the serial test port, with names that hold spaces or quotes.

The rule (docs/serial-protocol.md, docs/cli.md): words are separated by
spaces; a word that starts with ``"`` runs to the next ``"`` not preceded
by a backslash, and inside it ``\\"`` stands for ``"`` and ``\\\\`` for
``\\`` (nothing else is an escape); a ``#`` outside quotes starts a comment.
A line without ``"`` splits exactly as it always did, so every older line
keeps its meaning; :func:`quote` writes a name so that :func:`words` reads it
back.

>>> words('insert left "Player 1"  # the keypad default')
['insert', 'left', 'Player 1']
>>> quote("Player 1"), quote("Bob")
('"Player 1"', 'Bob')
"""

from __future__ import annotations

from banker.errors import ScriptError

QUOTE, ESCAPE, COMMENT = '"', "\\", "#"


def words(text: str, number: int = 0) -> list[str]:
    """The words of ``text`` up to a comment; :class:`ScriptError` (line ``number``) for a quote left open."""
    if QUOTE not in text:
        return text.split(COMMENT, 1)[0].split()
    found: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch == COMMENT:
            break
        elif ch == QUOTE:
            word, i = _quoted(text, i + 1, number)
            if i < n and not text[i].isspace() and text[i] != COMMENT:
                raise ScriptError(number, "a quoted name must end its word")
            found.append(word)
        else:
            word, i = _bare(text, i, number)
            found.append(word)
    return found


def _bare(text: str, i: int, number: int) -> tuple[str, int]:
    """The word without quotes starting at ``i``, and the index after it; a quote may not follow on."""
    start, n = i, len(text)
    while i < n and not text[i].isspace() and text[i] not in (COMMENT, QUOTE):
        i += 1
    if i < n and text[i] == QUOTE:
        raise ScriptError(number, 'a quote (") may only start a word')
    return text[start:i], i


def _quoted(text: str, i: int, number: int) -> tuple[str, int]:
    """The quoted word starting after its opening quote at ``i``, and the index after its closing quote."""
    out: list[str] = []
    while i < len(text):
        ch = text[i]
        if ch == ESCAPE and i + 1 < len(text) and text[i + 1] in (QUOTE, ESCAPE):
            out.append(text[i + 1])
            i += 2
        elif ch == QUOTE:
            return "".join(out), i + 1
        else:
            out.append(ch)
            i += 1
    raise ScriptError(number, 'a quoted name is not closed (")')


def quote(name: str) -> str:
    """``name`` as one word that :func:`words` reads back: as it is when it can be, else in quotes."""
    if name and not any(ch.isspace() or ch in (QUOTE, COMMENT) for ch in name):
        return name
    return QUOTE + name.replace(ESCAPE, ESCAPE * 2).replace(QUOTE, ESCAPE + QUOTE) + QUOTE
