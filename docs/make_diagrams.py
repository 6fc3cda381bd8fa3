"""Draw the build's diagrams (docs/img/*.svg) and write the wiring tables of docs/wiring.md, from runtime/pins.py.

Run it from the repository's root after a change of the wiring table
(``docs/make_screenshots.py`` runs it too, so one command redraws every
picture of docs/):

    .venv/bin/python docs/make_diagrams.py

Everything is drawn from :data:`runtime.pins.WIRES`, the one table of the
default wiring, so the pictures and the tables can't drift from the code;
``tests/house/test_docs_diagrams.py`` fails when a committed file differs from what
this script makes. The SVGs are plain text, the same on every machine.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs"))

from runtime.pins import DEVICES, HEADER, TITLES, WIRES, Wire, wires_of  # noqa: E402
from diagram_svg import CHAR, COLOURS, DIM, INK, POWER, Svg, resistor, terminal  # noqa: E402  (docs/diagram_svg.py)
from voice_diagram import voice_diagram  # noqa: E402  (docs/voice_diagram.py: the I2S amplifier, docs/voice.md)
from enclosure_diagram import enclosure_diagram  # noqa: E402  (docs/enclosure_diagram.py)
from breadboard import (  # noqa: E402  (docs/breadboard.py: the jumpers and the breadboard's splices)
    FF, MALE_PINS, MF, breadboard_diagram, breadboard_table, buzzer_row_labels, header_jumper, jumper_note, splice_row)

IMG = ROOT / "docs" / "img"
WIRING_MD = ROOT / "docs" / "wiring.md"

#: Each module's pins in the order they stand on its board, so a builder can count along its header strip; a
#: terminal the unit leaves unconnected is shown too (the readers' IRQ: the unit polls them).
PHYSICAL_ORDER = {
    "+ reader": ("SDA (SS)", "SCK", "MOSI", "MISO", "IRQ", "GND", "RST", "3.3V"),
    "- reader": ("SDA (SS)", "SCK", "MOSI", "MISO", "IRQ", "GND", "RST", "3.3V"),
    "display": ("GND", "VCC", "SCL", "SDA"),
}
UNCONNECTED = {"IRQ": "not connected: the unit polls the reader"}
#: A warning printed on a device's picture.
WARNINGS = {
    "+ reader": "the order of the RC522's header strip; solder the strip to the board first (it comes loose)",
    "- reader": "the order of the RC522's header strip; solder the strip to the board first (it comes loose)",
    "display": "check the labels on YOUR board: many are GND VCC SCL SDA, some VCC GND SCL SDA; swapped power kills it",
    "keypad": "its ribbon can't plug straight onto the header: the pins aren't 8 side by side (GND pin 34 is among them)",
}


def terminals(device: str) -> list[tuple[str, Wire | None]]:
    """``device``'s terminals in their order on the board, each with its wire (None: left unconnected)."""
    wires = {w.terminal: w for w in wires_of(device)}
    order = PHYSICAL_ORDER.get(device, tuple(wires))
    missing = set(wires) - set(order)
    if missing:
        raise SystemExit(f"make_diagrams.py: {device} terminals {sorted(missing)} are not in PHYSICAL_ORDER")
    return [(terminal, wires.get(terminal)) for terminal in order]


def _pin_colour(pin: int) -> str:
    users = [w.device for w in WIRES if w.pin == pin and w.device != "rdm6300"]
    if users and HEADER[pin].startswith("GPIO"):
        return COLOURS[users[0]]
    return POWER.get(HEADER[pin], "#d0d0d6")


def _uses(pin: int) -> list[Wire]:
    return [w for w in WIRES if w.pin == pin]


# -- the header --------------------------------------------------------------------------------


def header_diagram() -> str:
    """The 40-pin header, pin 1 at the top left, each pin named with what the unit wires to it."""
    pitch, top, cx = 26, 86, 460
    svg = Svg(920, top + 20 * pitch + 44, "The Raspberry Pi's 40-pin header as the unit uses it")
    svg.text(460, 30, "The 40-pin header, seen from above (pin 1: the square pad, at the end away from the USB ports)",
             size=15, anchor="middle", bold=True)
    svg.text(460, 52, "the rdm6300 lines are for a 125 kHz RDM6300 fitted instead of the + RC522", anchor="middle",
             colour=DIM)
    svg.rect(cx - 34, top - 18, 68, 20 * pitch + 10, fill="#22262e", stroke="#22262e", radius=4)
    for pin in range(1, 41):
        row, right = (pin - 1) // 2, pin % 2 == 0
        x, y = cx + (16 if right else -16), top + row * pitch
        if pin == 1:
            svg.rect(x - 8, y - 8, 16, 16, fill=_pin_colour(pin), stroke="#ffffff", width=1.5)
        else:
            svg.circle(x, y, 8, fill=_pin_colour(pin), stroke="#ffffff")
        number_x = x + (22 if right else -22)
        svg.text(number_x, y + 4, str(pin), size=11, anchor="start" if right else "end", colour=DIM)
        uses = _uses(pin)
        label_x = cx + (70 if right else -70)
        anchor = "start" if right else "end"
        name = HEADER[pin]
        if not uses:
            svg.text(label_x, y + 4, name, size=12, anchor=anchor, colour="#a0a0aa")
            continue
        words = "; ".join(f"{w.device} {w.terminal}" for w in uses)
        if splice_row(pin) is not None:
            words = f"breadboard row {splice_row(pin)}: {words}"
        colour = COLOURS[uses[0].device] if name.startswith("GPIO") else INK
        svg.text(label_x, y + 4, f"{name}: {words}" if right else f"{words}: {name}", size=12, anchor=anchor,
                 colour=colour)
    y = top + 20 * pitch + 24
    x = 40
    for device in DEVICES:
        svg.rect(x, y - 10, 12, 12, fill=COLOURS[device], stroke=COLOURS[device])
        svg.text(x + 18, y, device, size=12)
        x += 28 + len(device) * CHAR
    for name, colour in POWER.items():
        svg.circle(x + 6, y - 4, 6, fill=colour)
        svg.text(x + 18, y, name, size=12)
        x += 30 + len(name) * CHAR
    return svg.svg()


# -- one device --------------------------------------------------------------------------------


def device_diagram(device: str) -> str:
    """``device``'s terminals on the left in their order on the board, a wire each to its header pin on the right."""
    rows = terminals(device)
    pitch, top = 34, 84
    warning = WARNINGS.get(device)
    svg = Svg(960, top + len(rows) * pitch + (74 if warning else 52), TITLES[device])
    colour = COLOURS[device]
    svg.text(30, 34, TITLES[device], size=16, bold=True)
    svg.text(30, 56, "the module's pins on the left, in their order on the board; the Pi's header on the right "
             "(a pin two modules share: a breadboard row)", colour=DIM)
    box_h = len(rows) * pitch
    svg.rect(30, top - 20, 190, box_h, fill="#f7f7f9", stroke=colour, width=2, radius=8)
    for n, (name, wire) in enumerate(rows):
        y = top + n * pitch
        svg.text(44, y + 4, name, size=13)
        if wire is None:
            svg.circle(220, y, 4, fill="none", stroke=DIM)
            svg.line(224, y, 300, y, stroke=DIM, width=1.5, dash=True)
            svg.text(310, y + 5, UNCONNECTED.get(name, "not connected"), size=12, colour=DIM)
            continue
        svg.circle(220, y, 4, fill=colour)
        _device_wire(svg, y, wire, POWER.get(HEADER[wire.pin], colour))
    svg.text(30, top + box_h + 14, "jumpers: " + jumper_note(device), size=13)
    if warning:
        svg.text(30, top + box_h + 36, "! " + warning, size=13, colour="#b03a2e", bold=True)
    return svg.svg()


def _device_wire(svg: Svg, y, wire: Wire, stroke: str) -> None:
    """One jumper from a module's pin: to its header pin, or to the breadboard row of a pin it shares."""
    row = splice_row(wire.pin)
    kind = MF if row is not None or wire.device not in MALE_PINS else FF
    plug = "" if row is not None else f' data-plug="{wire.pin}"'
    svg.line(224, y, 560, y, stroke=stroke, width=2.5 if kind == FF else 2, mark=f'data-jumper="{kind}"{plug}')
    if wire.via:
        svg.text(392, y - 7, wire.via, size=11, anchor="middle", colour=DIM)
    if row is None:
        svg.rect(560, y - 11, 44, 22, fill="#22262e", stroke="#22262e", radius=3)
        svg.text(582, y + 5, str(wire.pin), size=12, anchor="middle", colour="#ffffff", bold=True)
        svg.text(616, y + 5, wire.line, size=13)
        return
    svg.rect(560, y - 11, 60, 22, fill="#f3efe2", stroke=INK, radius=3)
    svg.text(590, y + 5, f"row {row}", size=12, anchor="middle", bold=True)
    svg.text(632, y + 5, f"on to pin {wire.pin}: {wire.line}", size=13)


# -- circuits ----------------------------------------------------------------------------------


def buzzer_diagram() -> str:
    """The buzzer's switch: GPIO -> 1 kOhm -> NPN base; 5 V -> 68 Ohm -> buzzer -> collector; a flyback diode."""
    signal, supply, ground = (next(w for w in wires_of("buzzer") if w.terminal == t) for t in ("signal", "+ terminal", "emitter"))
    svg = Svg(860, 620, "The buzzer's transistor circuit")
    svg.text(30, 34, "Buzzer: the GPIO switches an NPN transistor (2N2222A or PN2222A)", size=16, bold=True)
    svg.text(30, 56, "a 68 Ohm resistor in series keeps any 16-42 Ohm buzzer under 60 mA; the GPIO gives only 2.6 mA",
             colour=DIM)
    bx = 540  # the buzzer's and the collector's column
    header_jumper(svg, bx, 96, supply)
    svg.line(bx, 107, bx, 116)
    resistor(svg, bx, 116, 60, vertical=True, label="68 Ohm, 1/4 W")
    svg.line(bx, 176, bx, 220)
    # the buzzer: a circle between 220 and 272, the diode beside it (across the buzzer only)
    svg.circle(bx, 246, 26, fill="#e0f7fa", stroke=COLOURS["buzzer"])
    svg.text(bx, 251, "buzzer", size=11, anchor="middle")
    svg.text(bx - 34, 226, "+", size=14, anchor="middle", bold=True)
    svg.circle(bx, 196, 3)
    svg.line(bx, 196, bx + 90, 196)
    svg.line(bx + 90, 196, bx + 90, 238)
    svg.path(f"M {bx + 78} 238 l 24 0 l -12 -18 z", fill=INK)  # the diode's cathode bar up: towards 5 V
    svg.line(bx + 78, 220, bx + 102, 220)
    svg.path(f"M {bx + 90} 238 L {bx + 90} 306 L {bx} 306")
    svg.circle(bx, 306, 3)
    svg.text(bx + 104, 226, "1N4148", size=12)
    svg.text(bx + 104, 242, "(magnetic buzzer)", size=11, colour=DIM)
    svg.line(bx, 272, bx, 336)
    # the transistor: base bar at x = bx - 30, collector up, emitter down
    svg.circle(bx - 14, 366, 30, stroke=INK, fill="none")
    svg.line(bx - 30, 346, bx - 30, 386, width=3)
    svg.path(f"M {bx - 30} 358 L {bx} 336")
    svg.path(f"M {bx - 30} 374 L {bx} 396")
    svg.path(f"M {bx - 8} 384 l 8 12 l -13 -1 z", fill=INK)  # the emitter's arrow, pointing out
    svg.text(bx + 12, 340, "C", size=12)
    svg.text(bx + 12, 400, "E", size=12)
    svg.text(bx - 44, 358, "B", size=12)
    svg.text(bx - 80, 416, "NPN", size=12, anchor="middle", colour=DIM)
    svg.line(bx, 396, bx, 456)
    header_jumper(svg, bx, 468, ground)
    # the base resistor from the GPIO
    svg.line(bx - 30, 366, bx - 60, 366)
    resistor(svg, bx - 200, 366, 140, vertical=False, label="1 kOhm")
    svg.line(bx - 200, 366, bx - 230, 366)
    header_jumper(svg, bx - 252, 366, signal, anchor="end")
    buzzer_row_labels(svg, bx)
    for n, line in enumerate((
            "Current: (5 V - 0.2 V) / (16 Ohm + 68 Ohm) = 57 mA; 42 Ohm: 4.8 V / 110 Ohm = 44 mA "
            "(without the 68 Ohm: up to 300 mA).",
            "Transistor: a 2N2222A or PN2222A takes 600 mA; its base gets (3.3 V - 0.7 V) / 1 kOhm = 2.6 mA, "
            "enough to switch 57 mA hard.",
            "68 Ohm: 57 mA x 57 mA x 68 Ohm = 0.22 W while sounding, half that on a tone's PWM: a 1/4 W resistor.",
            f"GPIO{signal.gpio} drives the tones as PWM; a piezo disc needs no diode, a magnetic buzzer does.",
            f"It sits on the breadboard (each node's row in brown): {jumper_note('buzzer')}.")):
        svg.text(30, 516 + n * 20, line, size=12, colour=DIM if n == 3 else INK)
    return svg.svg()


def rdm6300_diagram() -> str:
    """The RDM6300's 5 V TX brought down to 3.3 V by a 1 kOhm / 2 kOhm divider before GPIO15."""
    tx, five, ground = (next(w for w in wires_of("rdm6300") if w.terminal == t) for t in ("TX", "5V", "GND"))
    svg = Svg(820, 360, "The RDM6300's level shift")
    svg.text(30, 34, "RDM6300 (125 kHz, 5 V): its TX must not reach the Pi at 5 V", size=16, bold=True)
    svg.text(30, 56, "a divider makes 5 V x 2k / (1k + 2k) = 3.3 V; or use a BSS138 level-shifter board",
             colour=DIM)
    svg.rect(30, 80, 150, 220, fill="#f7f7f9", stroke=COLOURS["rdm6300"], width=2, radius=8)
    svg.text(105, 104, "RDM6300", size=13, anchor="middle", bold=True)
    for y, label in ((130, "5V"), (190, "TX"), (270, "GND")):
        svg.text(170, y + 4, label, size=13, anchor="end")
        svg.circle(180, y, 4, fill=COLOURS["rdm6300"])
    svg.line(184, 130, 560, 130, stroke=POWER["5V"], width=2)
    terminal(svg, 582, 130, five)
    svg.line(184, 190, 240, 190)
    resistor(svg, 240, 190, 120, vertical=False, label="1 kOhm")
    svg.line(360, 190, 560, 190)
    svg.circle(420, 190, 4)
    resistor(svg, 420, 190, 80, vertical=True, label="2 kOhm")
    svg.circle(420, 270, 4)
    svg.line(184, 270, 560, 270, stroke=POWER["GND"])
    terminal(svg, 582, 190, tx)
    terminal(svg, 582, 270, ground)
    svg.text(30, 336, "Enable the UART (raspi-config: serial login shell no, serial hardware yes); "
             "the Pi's TX (pin 8) stays unconnected.", size=12, colour=DIM)
    return svg.svg()


# -- power ---------------------------------------------------------------------------------------

#: (what, its device in the wiring table, the rail it takes, typical mA, peak mA).
LOADS = (
    ("+ reader (RC522)", "+ reader", "3V3", 30, 100),
    ("- reader (RC522)", "- reader", "3V3", 30, 100),
    ("OLED", "display", "3V3", 15, 30),
    ("buzzer (NPN, 68 Ohm)", "buzzer", "5V", 0, 60),
)


def power_diagram() -> str:
    """Where the power comes from and where it goes: supply -> Pi -> 3V3 and 5V pins -> devices, with currents."""
    svg = Svg(900, 420, "Power and 3.3 V distribution")
    svg.text(30, 34, "Power: one USB supply feeds the Pi; the devices take 3.3 V and 5 V from its header", size=16,
             bold=True)
    svg.text(30, 56, "Pi 4: 5.1 V 3 A USB-C; Pi 5: 5.1 V 5 A USB-C; Zero 2 W: 5.1 V 2.5 A micro-USB", colour=DIM)
    svg.rect(30, 150, 130, 70, fill="#f7f7f9", radius=8)
    svg.text(95, 182, "USB power", anchor="middle", bold=True)
    svg.text(95, 202, "supply", anchor="middle")
    svg.line(160, 185, 230, 185, width=3, stroke=POWER["5V"])
    svg.rect(230, 110, 170, 150, fill="#e9f5ec", stroke="#1f9d55", radius=8)
    svg.text(315, 140, "Raspberry Pi", anchor="middle", bold=True)
    svg.text(315, 162, "5V pins 2, 4", anchor="middle", colour=POWER["5V"])
    svg.text(315, 182, "3V3 pins 1, 17", anchor="middle", colour=POWER["3V3"])
    svg.text(315, 202, "(one 3.3 V rail)", anchor="middle", colour=DIM)
    svg.text(315, 222, "GND pins 6, 9, 14,", anchor="middle")
    svg.text(315, 240, "20, 25, 30, 34, 39", anchor="middle")
    y = 100
    for what, device, rail, typical, peak in LOADS:
        pin = ", ".join(str(w.pin) for w in wires_of(device) if HEADER[w.pin] == rail)
        svg.line(400, 185, 470, y + 12, width=2, stroke=POWER[rail])
        svg.rect(470, y - 6, 400, 36, fill="#fafafa", stroke=POWER[rail], radius=6)
        svg.text(482, y + 17, f"{what}: {rail} pin {pin}, about {typical}-{peak} mA" if typical else
                 f"{what}: {rail} pin {pin}, up to {peak} mA sounding", size=12)
        y += 56
    total = sum(peak for _, _, rail, _, peak in LOADS if rail == "3V3")
    svg.text(30, 330, f"At most about {total} mA on 3.3 V with both readers' fields on: within what the Pi's regulator "
             "spares, but hang nothing more on it.", size=12)
    svg.text(30, 352, "Each reader has its own 3.3 V pin (pin 1 feeds the - reader and the OLED through breadboard row "
             f"{splice_row(1)}) and a 10 uF + 100 nF", size=12)
    svg.text(30, 370, "capacitor soldered at its 3.3V pin; each module's GND has a ground pin of its own, and all grounds "
             "meet at the Pi.", size=12)
    svg.text(30, 392, "If a reader drops out when the other one or the buzzer runs, feed the readers from a separate "
             "3.3 V regulator on 5 V (grounds joined).", size=12, colour=DIM)
    return svg.svg()


# -- the tables of docs/wiring.md ------------------------------------------------------------------


def device_table(device: str) -> str:
    rows = ["| terminal | header pin | what the pin is | on the way |", "|---|---|---|---|"]
    for name, wire in terminals(device):
        if wire is None:
            rows.append(f"| {name} | - | {UNCONNECTED.get(name, 'not connected')} |  |")
        else:
            row = splice_row(wire.pin)
            via = "; ".join(([f"breadboard row {row}"] if row is not None else []) + ([wire.via] if wire.via else []))
            rows.append(f"| {name} | {wire.pin} | {wire.line} | {via} |")
    return "\n".join(rows)


def summary_table() -> str:
    rows = ["| pin | what | the unit's use | pin | what | the unit's use |", "|---|---|---|---|---|---|"]
    def cell(pin: int) -> str:
        uses = "; ".join(f"{w.device} {w.terminal}" for w in WIRES if w.pin == pin)
        if splice_row(pin) is not None:
            uses += f" (breadboard row {splice_row(pin)})"
        return f"{pin} | {HEADER[pin]} | {uses or '-'}"
    for odd in range(1, 41, 2):
        rows.append(f"| {cell(odd)} | {cell(odd + 1)} |")
    return "\n".join(rows)


def tables() -> dict[str, str]:
    """The generated sections of docs/wiring.md by marker name."""
    return {**{device: device_table(device) for device in DEVICES}, "breadboard": breadboard_table(),
            "summary": summary_table()}


MARKER = re.compile(r"(<!-- wiring:(?P<name>[^>]+?) -->\n)(?P<body>.*?)(<!-- /wiring -->)", re.S)


def wiring_md(text: str) -> str:
    """``text`` (docs/wiring.md) with every ``<!-- wiring:NAME -->`` section written afresh."""
    sections = tables()

    def fill(match: re.Match) -> str:
        name = match["name"]
        if name not in sections:
            raise SystemExit(f"docs/wiring.md: no table named {name!r} (known: {', '.join(sections)})")
        return f"{match[1]}{sections[name]}\n{match[4]}"

    return MARKER.sub(fill, text)


# -- all of it -----------------------------------------------------------------------------------

SLUGS = {"+ reader": "plus-reader", "- reader": "minus-reader", "display": "display", "keypad": "keypad"}


def diagrams() -> dict[str, str]:
    """Every generated picture: file name in docs/img -> SVG text."""
    out = {"wiring-header.svg": header_diagram()}
    out.update({f"wiring-{slug}.svg": device_diagram(device) for device, slug in SLUGS.items()})
    out["wiring-breadboard.svg"] = breadboard_diagram()
    out["wiring-buzzer.svg"] = buzzer_diagram()
    out["wiring-rdm6300.svg"] = rdm6300_diagram()
    out["wiring-voice.svg"] = voice_diagram()
    out["power.svg"] = power_diagram()
    out["enclosure.svg"] = enclosure_diagram()
    return out


def main() -> None:
    IMG.mkdir(parents=True, exist_ok=True)
    for name, text in diagrams().items():
        path = IMG / name
        path.write_text(text, encoding="utf-8")
        print(path.relative_to(ROOT))
    WIRING_MD.write_text(wiring_md(WIRING_MD.read_text(encoding="utf-8")), encoding="utf-8")
    print(WIRING_MD.relative_to(ROOT))


if __name__ == "__main__":
    main()
