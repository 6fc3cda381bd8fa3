"""Build night from the docs alone: a jumper bought for every connection the wiring table needs and one plug per
header pin (the shared lines spliced on a breadboard row each), the keypad's one way onto the header, a soldering
iron on the list, a buzzer circuit no allowed part can overload (its arithmetic checked here), each module's pins in
their order on its board, the OLED's power-pin warning, and header colours that can't be mistaken for each other."""

import itertools
import re
import sys
from collections import Counter
from pathlib import Path

from runtime import pins
from runtime.config import Config

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS))

from diagram_svg import COLOURS, POWER  # noqa: E402  (docs/diagram_svg.py)

BOM = (DOCS / "bom.md").read_text(encoding="utf-8")
WIRING = (DOCS / "wiring.md").read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def test_the_readers_headers_are_soldered_and_the_keypad_takes_male_female_jumpers():
    assert re.search(r"\| \d+ \| male-female jumper wires .*keypad", BOM)  # the keypad's ribbon ends in a socket
    assert "8-pin 2.54 mm male header strip" in BOM
    tools = section(BOM, "## Tools")
    assert "soldering iron" in tools and "RC522" in tools and "soldered" in tools


# -- the jumpers, the splices and the header's plugs, counted from runtime/pins.py -------------------------------

#: The default build: an RDM6300 is fitted instead of the + reader, so its lines are not wired beside the others.
BUILD = [w for w in pins.WIRES if w.device != "rdm6300"]
#: Modules whose pins are male (the soldered header strips): a female-female jumper from the header reaches them.
MALE_PINS = {"+ reader", "- reader", "display"}
USERS = Counter(w.pin for w in BUILD)
SHARED = {pin for pin, n in USERS.items() if n > 1}  # two plugs can't share a pin: a breadboard row each


def needed_jumpers() -> Counter:
    """The jumpers the wiring table needs: a shared pin takes one to its breadboard row and one from each module;
    the buzzer's circuit sits on the breadboard; the keypad's ribbon ends in a female socket."""
    kinds = Counter({"male-female": len(SHARED)})
    for wire in BUILD:
        direct = wire.pin not in SHARED and wire.device in MALE_PINS
        kinds["female-female" if direct else "male-female"] += 1
    return kinds


def bom_quantity(part: str, text: str = BOM) -> int:
    rows = re.findall(rf"^\| (\d+) \| {re.escape(part)}", text, re.M)
    assert len(rows) == 1, f"docs/bom.md has {len(rows)} rows of {part}"
    return int(rows[0])


def test_the_bom_buys_a_jumper_for_every_connection_the_wiring_table_needs():
    unit = section(BOM, "## The unit")
    needed = needed_jumpers()
    assert needed == {"female-female": 10, "male-female": 23}  # the figures docs/wiring.md's prose gives
    for kind, n in needed.items():
        assert bom_quantity(f"{kind} jumper wires", unit) == n, f"docs/bom.md buys the wrong number of {kind}"
    assert f"{needed['female-female']} female-female and {needed['male-female']} male-female" in WIRING
    amplifier = section(BOM, "## For the voice")
    assert bom_quantity("female-female jumper wires", amplifier) == len(pins.I2S_WIRES)  # its pins are male too
    assert f"{len(pins.I2S_WIRES)} female-female jumpers" in prose(section(WIRING, "## A speaker"))


def test_every_shared_header_pin_has_a_breadboard_row_in_the_bom_and_in_wiring_md():
    assert SHARED == {pins.header_pin(g) for g in (9, 10, 11)} | {1}  # SPI0's MISO, MOSI, SCLK; the 3V3 of pin 1
    assert bom_quantity("half-size solderless breadboard") == 1
    breadboard_row = next(line for line in BOM.splitlines() if "solderless breadboard" in line)
    assert {int(n) for n in re.findall(r"pin (\d+)", breadboard_row)} == SHARED
    jumper_row = next(line for line in BOM.splitlines() if "| male-female jumper wires" in line)
    assert f"the {len(SHARED)} splices" in breadboard_row and f"the {len(SHARED)} splices" in jumper_row
    assert "Wago" not in BOM and "perfboard" not in BOM  # one way to splice, not three
    table = WIRING.split("<!-- wiring:breadboard -->")[1].split("<!-- /wiring -->")[0]
    from_pins = [int(n) for n in re.findall(r"the jumper from pin (\d+)", table)]
    buzzer = {w.pin for w in pins.wires_of("buzzer")}
    assert sorted(from_pins) == sorted(SHARED | buzzer)  # each once: one plug on each of those pins
    for pin in SHARED:
        row = next(line for line in table.splitlines() if f"the jumper from pin {pin} " in line)
        assert row.count("a jumper to the ") == USERS[pin]


DEFAULT_DIAGRAMS = ("plus-reader", "minus-reader", "display", "keypad", "buzzer", "breadboard")


def test_the_diagrams_draw_each_jumper_the_bom_buys_and_one_plug_per_header_pin():
    jumpers, plugs = Counter(), Counter()
    for name in DEFAULT_DIAGRAMS:
        svg = (DOCS / "img" / f"wiring-{name}.svg").read_text(encoding="utf-8")
        for kind, plug in re.findall(r'data-jumper="([a-z-]+)"(?: data-plug="(\d+)")?', svg):
            jumpers[kind] += 1
            if plug:
                plugs[int(plug)] += 1
    assert jumpers == needed_jumpers()
    twice = sorted(pin for pin, n in plugs.items() if n > 1)
    assert not twice, f"the diagrams put two plugs on header pins {twice}"
    assert set(plugs) == set(USERS)  # every pin the wiring table uses has its plug drawn


def test_each_module_has_a_ground_pin_of_its_own_as_wiring_md_says():
    grounds = [w.pin for w in BUILD if pins.HEADER[w.pin] == "GND"]
    assert len(grounds) == len(set(grounds)) == 4  # the two readers, the OLED, the buzzer's emitter
    paragraph = prose(section(WIRING, "## Power")).split("Each module's GND")[1]
    assert named("pins?", paragraph.split(" so ")[0]) == set(grounds)
    assert not SHARED & set(grounds)


def test_the_voice_build_also_puts_one_plug_on_each_header_pin():
    moved = {(w.device, w.terminal): w.pin for w in pins.I2S_MOVED}
    plugs = Counter(moved.get((w.device, w.terminal), w.pin) for w in BUILD if w.pin not in SHARED)
    plugs.update(SHARED)
    plugs.update(w.pin for w in pins.I2S_WIRES)
    assert not [pin for pin, n in plugs.items() if n > 1]


def prose(text: str) -> str:
    """``text`` without its generated tables, its lines joined."""
    return " ".join(re.sub(r"<!-- wiring:[^>]+ -->.*?<!-- /wiring -->", "", text, flags=re.S).split())


def named(word: str, text: str) -> set[int]:
    """The numbers ``text`` names after ``word``: ``pins 29, 31 and 33``, ``pins 8/10``, ``GPIO 18-21``."""
    found = set()
    for match in re.finditer(rf"\b{word} ?(\d+(?:(?:,? and |, |/|-)\d+)*)", text):
        for a, b in re.findall(r"(\d+)(?:-(\d+))?", match[1]):
            found.update(range(int(a), int(b or a) + 1))
    return found


#: Pins docs/wiring.md names as left alone: the Pi's TX beside an RDM6300, the HAT EEPROM's pins, the ground pin
#: among the keypad's columns (why its ribbon can't plug straight on).
LEFT_ALONE = {8, 27, 28, 34}


def test_wiring_md_names_no_pin_the_wiring_table_doesnt_use():
    text = prose(WIRING)
    wired = {w.pin for w in pins.WIRES + pins.I2S_WIRES + pins.I2S_MOVED}
    assert named("pins?", text) - wired <= LEFT_ALONE
    gpios = {g for p in wired | LEFT_ALONE if (g := pins.Wire("", "", p).gpio) is not None}
    assert named("GPIO", text) <= gpios
    assert "stays unconnected" in text and "kept for HAT EEPROMs" in text  # what the LEFT_ALONE pins are
    assert named("GPIO", prose(section(WIRING, "## Buzzer"))) == {pins.BUZZER}


def test_the_keypad_goes_on_eight_male_female_jumpers_to_the_default_pins():
    keypad = section(WIRING, "## Keypad")
    defaults = [pins.header_pin(g) for g in Config().keypad.rows + Config().keypad.columns]
    table = keypad.split("<!-- wiring:keypad -->")[1].split("<!-- /wiring -->")[0]
    assert [int(row.split(" | ")[1]) for row in table.strip().splitlines()[2:]] == defaults
    assert named("pins?", prose(keypad)) == set(defaults) | {34}  # 34: the ground pin among the columns
    assert pins.HEADER[34] == "GND"
    assert f"{len(defaults)} male-female jumpers" in prose(keypad)
    assert "plugged straight onto the header" not in WIRING and "can't plug straight onto the header" in keypad
    # why no pin choice would let the ribbon (one row of 8) plug on: no 8 side-by-side pins are all GPIOs
    for line in (range(1, 41, 2), range(2, 41, 2)):  # the header's two rows of 20
        for n in range(len(line) - 7):
            assert not all(pins.HEADER[p].startswith("GPIO") for p in line[n:n + 8]), list(line[n:n + 8])


def test_every_part_the_wiring_uses_is_a_bom_row_with_a_quantity():
    unit = section(BOM, "## The unit")
    rows = [line for line in unit.splitlines() if re.match(r"\| \d+(-\d+)? \|", line)]
    for part in ("female-female jumper", "male-female jumper", "breadboard", "2N2222A", "1 kΩ", "68 Ω", "1N4148",
                 "10 µF", "100 nF", "header strip", "4 × 4 matrix keypad", "passive buzzer"):
        assert any(part in row for row in rows), f"docs/bom.md has no row for {part}"


def buzzer_current_ma(coil_ohm: float, series_ohm: float, supply=5.0, v_ce_sat=0.2) -> float:
    return (supply - v_ce_sat) / (coil_ohm + series_ohm) * 1000


def test_no_buzzer_the_bom_allows_overloads_the_transistor_the_bom_lists():
    series = int(re.search(r"\| 1 \| (\d+) Ω resistor, ¼ W \| \| in series with the buzzer", BOM).group(1))
    coils = [int(n) for n in re.search(r"about (\d+)-(\d+) Ω", BOM).groups()]
    transistor_row = next(line for line in BOM.splitlines() if line.startswith("| 1 | NPN transistor"))
    rating_ma = int(re.search(r"(\d+) mA\)", transistor_row).group(1))
    assert "BC547 (TO-92" not in transistor_row  # 100 mA: not the part to buy
    worst = buzzer_current_ma(min(coils), series)
    assert worst <= rating_ma / 5  # five times the headroom, for the part the BOM names
    assert worst < 100  # and even a BC547 someone already has stays within its 100 mA
    base_ma = (3.3 - 0.7) / 1.0  # 1 kOhm from a 3.3 V GPIO
    assert worst / base_ma < 75 / 2  # the 2N2222A's least current gain, twice over: it switches fully on
    buzzer = section(WIRING, "## Buzzer")
    assert f"{round(worst)} mA" in buzzer and f"{round(buzzer_current_ma(max(coils), series))} mA" in buzzer
    assert f"{round(buzzer_current_ma(min(coils), 0), -1):.0f} mA" in buzzer  # what it was without the resistor
    power_w = (worst / 1000) ** 2 * series
    assert f"{power_w:.2f} W" in buzzer and power_w < 0.25


def test_each_modules_pins_are_listed_in_their_order_on_the_board():
    for device in ("+ reader", "- reader"):
        table = WIRING.split(f"<!-- wiring:{device} -->")[1].split("<!-- /wiring -->")[0]
        order = [row.split(" | ")[0].lstrip("| ") for row in table.strip().splitlines()[2:]]
        assert order == ["SDA (SS)", "SCK", "MOSI", "MISO", "IRQ", "GND", "RST", "3.3V"]
        assert "| IRQ | - | not connected" in table
    display = WIRING.split("<!-- wiring:display -->")[1].split("<!-- /wiring -->")[0]
    assert [row.split(" | ")[0].lstrip("| ") for row in display.strip().splitlines()[2:]] == ["GND", "VCC", "SCL",
                                                                                          "SDA"]


def test_the_oled_power_pins_come_with_a_check_the_labels_warning():
    display = section(WIRING, "## Display")
    assert "Check the labels on your board" in display and "VCC GND SCL SDA" in display
    assert "check the labels on YOUR board" in (DOCS / "img" / "wiring-display.svg").read_text(encoding="utf-8")
    assert "check the labels on your board" in BOM


def lab(colour: str) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB ``#rrggbb``."""
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(v):
        return v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def test_no_two_colours_of_the_header_picture_can_be_mistaken():
    colours = {**COLOURS, **POWER}
    for (a, ca), (b, cb) in itertools.combinations(colours.items(), 2):
        distance = sum((p - q) ** 2 for p, q in zip(lab(ca), lab(cb))) ** 0.5
        assert distance >= 30, f"{a} ({ca}) and {b} ({cb}) look alike (CIE76 distance {distance:.0f})"


def test_the_breadboards_rows_in_the_prose_are_the_rows_its_table_gives():
    board = prose(section(WIRING, "## The breadboard"))
    table = WIRING.split("<!-- wiring:breadboard -->")[1].split("<!-- /wiring -->")[0]
    rows = {int(line.split(" | ")[0].lstrip("| ")): line for line in table.strip().splitlines()[2:]}
    transistor = [n for n, what in rows.items() if "the transistor's" in what]
    assert f"rows {transistor[0]}, {transistor[1]} and {transistor[2]}" in board
    assert transistor == list(range(transistor[0], transistor[0] + 3))  # its three legs side by side
    splices = [n for n, what in rows.items() if "a jumper to the " in what]
    assert f"Rows {splices[0]}-{splices[-1]} are the splices" in board
    buzzer_first = min(n for n in rows if n not in splices)
    assert f"from row {buzzer_first}" in prose(section(WIRING, "## Buzzer"))
    assert max(rows) <= 30  # a half-size breadboard's rows
    rdm = prose(section(WIRING, "## 125 kHz reader instead"))
    divider = named("rows?", rdm) - set(splices)  # "the - reader keeps breadboard rows 1-4"
    assert divider and not divider & set(rows) and max(divider) <= 30, "the RDM6300's divider rows collide"
    assert re.search(r"1 female-female and 4 male-female", rdm)
    assert "| 1 + 4 | female-female + male-female jumper wires" in section(BOM, "## Instead of the RC522s")
