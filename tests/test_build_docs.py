"""Build night from the docs alone: the right jumpers and a soldering iron on the list, a buzzer circuit no allowed
part can overload (its arithmetic checked here), each module's pins in their order on its board, the OLED's
power-pin warning, and header colours that can't be mistaken for each other."""

import itertools
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS))

from diagram_svg import COLOURS, POWER  # noqa: E402  (docs/diagram_svg.py)

BOM = (DOCS / "bom.md").read_text(encoding="utf-8")
WIRING = (DOCS / "wiring.md").read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def test_the_bom_has_the_jumpers_each_part_needs_and_the_readers_headers_soldered():
    assert re.search(r"\| \d+ \| female-female jumper wires", BOM)
    assert re.search(r"\| \d+ \| male-female jumper wires .*keypad", BOM)  # the keypad's ribbon ends in a socket
    assert "8-pin 2.54 mm male header strip" in BOM
    tools = section(BOM, "## Tools")
    assert "soldering iron" in tools and "RC522" in tools and "soldered" in tools


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
