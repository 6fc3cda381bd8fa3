"""The few SVG pieces docs/make_diagrams.py draws with: a canvas that writes deterministic text, a resistor, a pin."""

from __future__ import annotations

from html import escape

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK, DIM, PAPER, LINE = "#1d1d22", "#6b6b75", "#ffffff", "#b9b9c2"
#: Every two colours of the header picture differ by a CIE76 distance of 30 or more (tests/house/test_build_docs.py):
#: the buzzer's teal can't pass for 3V3's orange, nor 5V's pink for the - reader's red.
COLOURS = {
    "+ reader": "#1f9d55", "- reader": "#d64541", "display": "#2d6fd1", "keypad": "#8e44ad",
    "buzzer": "#00acc1", "rdm6300": "#8d6e63",
}
POWER = {"3V3": "#f39c12", "5V": "#e84393", "GND": "#2c2c2c"}
CHAR = 7.2  # the width of a character at 13 px, for laying text out


class Svg:
    """A small SVG canvas that writes deterministic text."""

    def __init__(self, width: int, height: int, title: str) -> None:
        self.width, self.height = width, height
        self.parts = [f'<title>{escape(title)}</title>',
                      f'<rect x="0" y="0" width="{width}" height="{height}" fill="{PAPER}"/>']

    def rect(self, x, y, w, h, *, fill="none", stroke=INK, width=1.5, radius=0, dash=False, mark="") -> None:
        extra = (' stroke-dasharray="6 4"' if dash else "") + (f" {mark}" if mark else "")
        self.parts.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{radius:g}" fill="{fill}" '
                          f'stroke="{stroke}" stroke-width="{width:g}"{extra}/>')

    def line(self, x1, y1, x2, y2, *, stroke=INK, width=1.5, dash=False, mark="") -> None:
        """A line; ``mark`` is extra attributes, e.g. the ``data-jumper`` and ``data-plug`` a jumper's line carries."""
        extra = (' stroke-dasharray="6 4"' if dash else "") + (f" {mark}" if mark else "")
        self.parts.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}" '
                          f'stroke-width="{width:g}"{extra}/>')

    def path(self, d: str, *, stroke=INK, width=1.5, fill="none") -> None:
        self.parts.append(f'<path d="{d}" stroke="{stroke}" stroke-width="{width:g}" fill="{fill}"/>')

    def circle(self, x, y, r, *, fill=INK, stroke="none") -> None:
        self.parts.append(f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{fill}" stroke="{stroke}"/>')

    def text(self, x, y, text: str, *, size=13, anchor="start", colour=INK, bold=False) -> None:
        weight = ' font-weight="bold"' if bold else ""
        self.parts.append(f'<text x="{x:g}" y="{y:g}" font-size="{size}" text-anchor="{anchor}" fill="{colour}"'
                          f'{weight}>{escape(text)}</text>')

    def svg(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
                f'viewBox="0 0 {self.width} {self.height}" font-family="{FONT}">')
        note = "<!-- made by docs/make_diagrams.py from runtime/pins.py: do not edit -->"
        return "\n".join([head, note, *self.parts, "</svg>", ""])


def resistor(svg: Svg, x, y, length, *, vertical: bool, label: str) -> None:
    """A resistor (a zigzag) from (x, y) along ``length`` pixels, named ``label``."""
    leg = (length - 36) / 2
    if vertical:
        zig = " ".join(f"l {(-7 if k % 2 else 7)} 6" for k in range(6))
        svg.path(f"M {x:g} {y:g} l 0 {leg:g} l 3.5 -3 {zig} l -3.5 3 l 0 {leg:g}")
        svg.text(x + 14, y + length / 2 + 4, label, size=12)
    else:
        zig = " ".join(f"l 6 {(-7 if k % 2 else 7)}" for k in range(6))
        svg.path(f"M {x:g} {y:g} l {leg:g} 0 l -3 3.5 {zig} l 3 -3.5 l {leg:g} 0")
        svg.text(x + length / 2, y - 12, label, size=12, anchor="middle")


def terminal(svg: Svg, x, y, wire, *, anchor="start", mark="") -> None:
    """A header pin as the end of a wire: a small box with its number and what it is (``mark``: as for a line)."""
    svg.rect(x - 22, y - 11, 44, 22, fill="#22262e", stroke="#22262e", radius=3, mark=mark)
    svg.text(x, y + 5, str(wire.pin), size=12, anchor="middle", colour="#ffffff", bold=True)
    offset = 30 if anchor == "start" else -30
    svg.text(x + offset, y + 5, f"pin {wire.pin}: {wire.line}", size=12, anchor=anchor)
