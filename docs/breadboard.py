"""The build's jumpers and breadboard rows, worked out from runtime/pins.py, and the breadboard's picture.

A header pin takes one Dupont plug. Where two modules need the same pin (the
readers' SCK, MOSI and MISO; pin 1's 3.3 V for the - reader and the OLED), one
jumper takes the pin to a row of a small breadboard and one jumper from each
module meets it there; the buzzer's transistor circuit sits on the same board.
docs/make_diagrams.py draws every picture and table of docs/wiring.md from
this plan, and tests/house/test_build_docs.py holds docs/bom.md's jumper counts to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from diagram_svg import COLOURS, DIM, INK, POWER, Svg, terminal

from runtime.pins import WIRES, Wire, wires_of

#: The devices of the default build (an RDM6300 is fitted instead of the + reader: docs/wiring.md).
BUILD = ("+ reader", "- reader", "display", "keypad", "buzzer")
#: Devices whose pins are male (the readers' and the OLED's soldered header strips): a female end goes on them.
MALE_PINS = ("+ reader", "- reader", "display")
FF, MF = "female-female", "male-female"
#: The length each kind of jumper is bought in: the female-female ones reach from the Pi to the readers; the
#: male-female ones go to the keypad's ribbon and to the breadboard beside the Pi.
LENGTH_CM = {FF: 20, MF: 10}
#: The buzzer circuit's nodes start at this breadboard row (the splices take rows 1, 2, ...).
BUZZER_FIRST_ROW = 7
#: The colour a breadboard row's number is written in.
BREADBOARD_INK = "#8a5a00"


@dataclass(frozen=True)
class Jumper:
    """One Dupont jumper: its ``kind``, the header ``pin`` its female end goes on (None: both ends elsewhere), the
    breadboard ``row`` its male end goes in (None: none), and the module terminal at its other end ("" : none)."""

    kind: str
    pin: int | None
    row: int | None
    to: str = ""


def build_wires() -> tuple[Wire, ...]:
    """The wires of the default build, in the table's order."""
    return tuple(w for w in WIRES if w.device in BUILD)


def spliced_pins() -> dict[int, tuple[Wire, ...]]:
    """The header pins two or more wires of the build need, each with its wires, in the order the table meets them."""
    users: dict[int, list[Wire]] = {}
    for wire in build_wires():
        users.setdefault(wire.pin, []).append(wire)
    return {pin: tuple(wires) for pin, wires in users.items() if len(wires) > 1}


def splice_row(pin: int) -> int | None:
    """The breadboard row that stands for header ``pin``, or None when a single plug goes on it."""
    rows = {p: n for n, p in enumerate(spliced_pins(), start=1)}
    return rows.get(pin)


def buzzer_rows() -> tuple[tuple[int, str], ...]:
    """The buzzer circuit on the breadboard: (row, what goes in it). A 2N2222A's legs E B C take three rows in a
    row; a resistor's legs are at least 4 rows (10 mm) apart, so a 1/4 W one lies flat, and the buzzer's 3 (its
    legs are 7.6 mm apart)."""
    signal, supply, ground = (next(w for w in wires_of("buzzer") if w.terminal == t)
                              for t in ("signal", "+ terminal", "emitter"))
    first = BUZZER_FIRST_ROW
    return (
        (first, f"the jumper from {pin_words(signal)}; the 1 kOhm resistor"),
        (first + 4, f"the transistor's E (emitter); the jumper from {pin_words(ground)}"),
        (first + 5, "the transistor's B (base); the 1 kOhm resistor's other leg"),
        (first + 6, "the transistor's C (collector); the buzzer's -; the 1N4148's anode"),
        (first + 9, "the buzzer's +; the 1N4148's cathode (the ring); the 68 Ohm resistor"),
        (first + 13, f"the 68 Ohm resistor's other leg; the jumper from {pin_words(supply)}"),
    )


def jumpers() -> tuple[Jumper, ...]:
    """Every jumper the default build takes: one per wire, and one more per spliced pin (the pin to its row)."""
    out = []
    for pin in spliced_pins():
        out.append(Jumper(MF, pin, splice_row(pin)))
    for wire in build_wires():
        row = splice_row(wire.pin)
        to = f"{wire.device} {wire.terminal}"
        if row is not None:
            out.append(Jumper(MF, None, row, to))
        elif wire.device == "buzzer":
            out.append(Jumper(MF, wire.pin, next(n for n, what in buzzer_rows() if pin_words(wire) in what), to))
        else:
            out.append(Jumper(FF if wire.device in MALE_PINS else MF, wire.pin, None, to))
    return tuple(out)


def count(kind: str, device: str | None = None) -> int:
    """How many jumpers of ``kind`` the build takes (those ending at ``device``'s terminals, when given)."""
    return sum(1 for j in jumpers() if j.kind == kind and (device is None or j.to.startswith(device + " ")))


def jumper_note(device: str) -> str:
    """What a device's picture says it takes: ``4 female-female jumpers (20 cm) to the header; ...``."""
    ends = {(True, False): "to the header", (False, True): "to the breadboard",
            (True, True): "from the header to the breadboard"}
    tally: dict[tuple[str, str], int] = {}
    for j in jumpers():
        if j.to.startswith(device + " "):
            key = (j.kind, ends[(j.pin is not None, j.row is not None)])
            tally[key] = tally.get(key, 0) + 1
    return "; ".join(f"{n} {kind} jumper{'s' * (n > 1)} ({LENGTH_CM[kind]} cm) {where}"
                     for (kind, where), n in tally.items())


def pin_words(wire: Wire) -> str:
    """``pin 23 (GPIO11, SPI0 SCLK)``."""
    return f"pin {wire.pin} ({wire.line.replace(' (', ', ').rstrip(')')})"


# -- the table and the picture -------------------------------------------------------------------------------


def breadboard_table() -> str:
    """docs/wiring.md's table of the breadboard's rows."""
    rows = ["| row | what goes in it |", "|---|---|"]
    for pin, wires in spliced_pins().items():
        ends = "; ".join(f"a jumper to the {w.device}'s {w.terminal}" for w in wires)
        rows.append(f"| {splice_row(pin)} | the jumper from {pin_words(wires[0])}; {ends} |")
    rows.extend(f"| {row} | {what} |" for row, what in buzzer_rows())
    return "\n".join(rows)


def breadboard_diagram() -> str:
    """The splices: each shared header pin to a breadboard row, and the modules' jumpers leaving it."""
    splices = spliced_pins()
    pitch, top = 64, 100
    svg = Svg(980, top + len(splices) * pitch + 120, "The breadboard: the shared lines' splices")
    svg.text(30, 34, "Breadboard: one plug per header pin, the shared lines meet in a row", size=16, bold=True)
    svg.text(30, 56, f"male-female jumpers ({LENGTH_CM[MF]} cm): the Pi's pin to the row (left), "
             "each module's jumper into the same row (right)", colour=DIM)
    for n, (pin, wires) in enumerate(splices.items()):
        y = top + n * pitch
        wire = wires[0]
        stroke = POWER.get(wire.line, COLOURS[wire.device])
        svg.rect(30, y - 11, 44, 22, fill="#22262e", stroke="#22262e", radius=3)
        svg.text(52, y + 5, str(pin), size=12, anchor="middle", colour="#ffffff", bold=True)
        svg.text(30, y + 30, wire.line, size=11, colour=DIM)
        svg.line(74, y, 330, y, stroke=stroke, width=2.5, mark=f'data-jumper="{MF}" data-plug="{pin}"')
        svg.rect(330, y - 16, 190, 32, fill="#f3efe2", stroke=INK, radius=4)
        svg.text(342, y + 5, f"row {splice_row(pin)}", size=13, bold=True)
        for hole in range(5):
            svg.circle(420 + hole * 20, y, 4, fill="#444444" if hole <= len(wires) else "#c9c3b3")
        for k, other in enumerate(wires):
            end_y = y - 12 + k * 24
            svg.path(f"M {440 + k * 20} {y} L {560} {end_y} L 640 {end_y}", stroke=COLOURS[other.device],
                     width=2)
            svg.text(650, end_y + 4, f"{other.device} {other.terminal}", size=12, colour=COLOURS[other.device])
    y = top + len(splices) * pitch + 10
    svg.text(30, y, f"From row {BUZZER_FIRST_ROW}: the buzzer's transistor circuit (its own picture), "
             "each node in a row of its own:", size=13, bold=True)
    for k, (row, what) in enumerate(buzzer_rows()):
        svg.text(30 + (k % 2) * 470, y + 24 + (k // 2) * 20, f"row {row}: {what}", size=11,
                 colour=COLOURS["buzzer"] if "jumper" in what else INK)
    return svg.svg()


def header_jumper(svg: Svg, x, y, wire: Wire, *, anchor="start") -> None:
    """A header pin at the end of a male-female jumper from the breadboard (the buzzer's picture)."""
    terminal(svg, x, y, wire, anchor=anchor, mark=f'data-jumper="{MF}" data-plug="{wire.pin}"')


def buzzer_row_labels(svg: Svg, bx) -> None:
    """Each node's breadboard row on the buzzer's picture (its collector's column at ``bx``): signal, emitter, base,
    collector, buzzer +, 5 V."""
    spots = ((bx - 215, 386, "middle"), (bx - 8, 432, "end"), (bx - 48, 388, "end"), (bx - 8, 324, "end"),
             (bx - 8, 192, "end"), (bx - 8, 124, "end"))
    for (x, y, anchor), (row, _) in zip(spots, buzzer_rows()):
        svg.text(x, y, f"row {row}", size=11, anchor=anchor, colour=BREADBOARD_INK, bold=True)
