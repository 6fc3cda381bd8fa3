"""A QR code drawn on the terminal: half blocks where stdout can write them, else plain ASCII (``banker web --qr``,
``banker key export --qr``).

segno makes the code; its own terminal writers draw in colour (ANSI) or in blocks only, and a block written to a
stdout that can't encode it is a traceback, so the drawing is made here from segno's matrix.
"""

from __future__ import annotations

import os
import sys

import click

#: Half blocks: a character cell is two modules, one above the other (True: light).
_HALVES = {(True, True): "\u2588", (True, False): "\u2580", (False, True): "\u2584", (False, False): " "}


def qr_drawing(text: str, *, blocks: bool, error: str = "l") -> list[str]:
    """``text`` as a QR code to print, a line each, at segno's ``error`` correction level (``"l"``, low: the same
    code as ``FN K``'s), with its quiet zone of 4 modules; the light modules are drawn (a terminal's text is light
    on dark).

    ``blocks``: half-block characters, two rows of modules a line (a near-square module in a terminal's cell);
    else plain ASCII, ``##`` a light module and a row a line, for a terminal that can't show the blocks.
    """
    import segno

    rows = [[not dark for dark in row] for row in segno.make(text, error=error, micro=False, boost_error=True)
            .matrix_iter(border=4)]
    if not blocks:
        return ["".join("##" if light else "  " for light in row) for row in rows]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    return ["".join(_HALVES[pair] for pair in zip(top, bottom)) for top, bottom in zip(rows[::2], rows[1::2])]


def draw_qr(text: str, *, error: str = "l") -> None:
    """``text``'s QR code on stdout: blocks where stdout can write them, else ASCII; white on black on a terminal
    (so that a light theme doesn't draw it inverted), unless NO_COLOR is set."""
    stream = sys.stdout  # its encoding as Python reads it from the locale (click's own stream would say UTF-8)
    try:
        "\u2588\u2580\u2584".encode(getattr(stream, "encoding", None) or "ascii")
        blocks = True
    except (LookupError, UnicodeEncodeError):
        blocks = False
    colour = stream.isatty() and not os.environ.get("NO_COLOR")
    for line in qr_drawing(text, blocks=blocks, error=error):
        click.echo(f"\x1b[97;40m{line}\x1b[0m" if colour else line)
