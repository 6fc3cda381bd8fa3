"""The enclosure sketch (docs/img/enclosure.svg): the lid from above with the readers, the screen and the keypad, and a
side view of one reader; drawn by docs/make_diagrams.py."""

from __future__ import annotations

from diagram_svg import COLOURS, DIM, INK, Svg

#: The lid's size and where the parts sit on it, in millimetres (top view).
LID = (240, 200)
READER = (60, 40)  # an RC522 board's antenna
CARD = (90, 58)  # a bank card (85.6 x 54) with room to lay it down: a shallow recess marks where
READER_CENTRES = ((60, 40), (180, 40))  # 120 mm apart: a card on one is never seen by the other
OLED = ((120, 92), (36, 20))  # a 1.3" module's window, centred
KEYPAD = ((120, 152), (70, 77))  # a 4x4 membrane keypad (its ribbon goes through a slot)
#: The shortest distance between the readers' antenna centres, in millimetres.
READER_SPACING_MM = 100


def enclosure_diagram() -> str:
    """A top view of the lid with the two readers, the screen and the keypad, and a side view of one reader."""
    mm = 3.0
    ox, oy = 40, 90
    svg = Svg(int(LID[0] * mm + 80), int(LID[1] * mm + 300), "An enclosure sketch")
    svg.text(40, 34, "Enclosure sketch: the lid from above (millimetres)", size=16, bold=True)
    svg.text(40, 56, f"the readers' antennas at least {READER_SPACING_MM} mm apart, centre to centre; "
             "no metal over or near them", colour=DIM)
    svg.rect(ox, oy, LID[0] * mm, LID[1] * mm, fill="#f4efe6", stroke=INK, width=2, radius=12)
    for (cx, cy), sign, colour in zip(READER_CENTRES, ("+", "-"), (COLOURS["+ reader"], COLOURS["- reader"])):
        w, h = CARD
        svg.rect(ox + (cx - w / 2) * mm, oy + (cy - h / 2) * mm, w * mm, h * mm, fill="#ffffff", stroke=colour,
                 width=2.5, radius=10)
        w, h = READER
        svg.rect(ox + (cx - w / 2) * mm, oy + (cy - h / 2) * mm, w * mm, h * mm, stroke=colour, width=1.5, radius=4,
                 dash=True)
        svg.text(ox + cx * mm, oy + cy * mm + 10, sign, size=30, anchor="middle", colour=colour, bold=True)
        svg.text(ox + cx * mm, oy + (cy + CARD[1] / 2) * mm - 10, "card recess; antenna dashed", size=11,
                 anchor="middle", colour=DIM)
    (ax, ay), (bx, by) = READER_CENTRES
    above = oy + (ay - CARD[1] / 2 - 4) * mm
    svg.line(ox + ax * mm, above, ox + bx * mm, above, stroke=DIM)
    for x in (ax, bx):
        svg.line(ox + x * mm, above - 6, ox + x * mm, above + 6, stroke=DIM)
    svg.text(ox + (ax + bx) / 2 * mm, above - 5, f"{bx - ax} mm, centre to centre", size=12, anchor="middle",
             colour=DIM)
    (cx, cy), (w, h) = OLED
    svg.rect(ox + (cx - w / 2) * mm, oy + (cy - h / 2) * mm, w * mm, h * mm, fill="#0b1220", stroke=INK, radius=2)
    svg.text(ox + cx * mm, oy + cy * mm + 5, "OLED window", size=12, anchor="middle", colour="#96d7ff")
    (cx, cy), (w, h) = KEYPAD
    svg.rect(ox + (cx - w / 2) * mm, oy + (cy - h / 2) * mm, w * mm, h * mm, fill="#e8e8ec", stroke=INK, radius=4)
    svg.text(ox + cx * mm, oy + cy * mm + 5, "4x4 keypad", size=12, anchor="middle")
    for dx in (-6, 0, 6):
        svg.circle(ox + (212 + dx) * mm, oy + 152 * mm, 5, fill="#555555")
    svg.text(ox + 212 * mm, oy + 164 * mm, "buzzer holes", size=11, anchor="middle", colour=DIM)
    svg.text(ox + LID[0] * mm / 2, oy + LID[1] * mm + 22, f"{LID[0]} x {LID[1]} mm lid; the Pi underneath the keypad, "
             "away from the antennas; USB power at the back", size=12, anchor="middle")
    # side view of one reader under the lid
    sy = oy + LID[1] * mm + 70
    svg.text(40, sy, "Side view: a reader under the lid", size=14, bold=True)
    svg.rect(40, sy + 20, 300, 10, fill="#d9cdb8", stroke=INK)
    svg.text(360, sy + 29, "lid: wood or plastic, at most 3 mm thick over the antenna", size=12)
    svg.rect(70, sy + 34, 240, 8, fill="#2f7d4f", stroke=INK)
    svg.text(360, sy + 52, "RC522 board, antenna side up, 0-2 mm under the lid", size=12)
    for x in (80, 300):
        svg.rect(x - 4, sy + 42, 8, 40, fill="#bbbbbb", stroke=INK, width=1)
    svg.text(360, sy + 75, "nylon spacers (no metal screws through the antenna)", size=12)
    svg.rect(60, sy + 100, 260, 14, fill="#cccccc", stroke=INK)
    svg.text(360, sy + 112, "the Pi and the wiring: at least 2 cm below the antennas", size=12)
    return svg.svg()
