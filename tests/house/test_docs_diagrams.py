"""The build's pictures are drawn from the one wiring table in code, and the committed ones are up to date.

If this fails after a change of runtime/pins.py (or of the drawing code),
run ``.venv/bin/python docs/make_diagrams.py`` (or ``docs/make_screenshots.py``,
which redraws every picture) and commit what it wrote.
"""

import importlib.util
from pathlib import Path

import pytest

from runtime import pins
from runtime.config import Config, parse_config

ROOT = Path(__file__).resolve().parents[2]
IMG = ROOT / "docs" / "img"
REDRAW = "stale: run .venv/bin/python docs/make_diagrams.py and commit the result"


def _generator():
    spec = importlib.util.spec_from_file_location("make_diagrams", ROOT / "docs" / "make_diagrams.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATOR = _generator()
DIAGRAMS = GENERATOR.diagrams()


@pytest.mark.parametrize("name", sorted(DIAGRAMS))
def test_each_committed_diagram_is_what_the_wiring_table_draws(name):
    path = IMG / name
    assert path.exists(), f"docs/img/{name} is missing: {REDRAW}"
    assert path.read_text(encoding="utf-8") == DIAGRAMS[name], f"docs/img/{name} is {REDRAW}"


def test_the_tables_of_wiring_md_are_what_the_wiring_table_says():
    text = (ROOT / "docs" / "wiring.md").read_text(encoding="utf-8")
    assert GENERATOR.wiring_md(text) == text, f"docs/wiring.md's tables are {REDRAW}"
    for name in GENERATOR.tables():
        assert f"<!-- wiring:{name} -->" in text, f"docs/wiring.md has no table {name}"


def test_every_diagram_is_shown_in_the_docs():
    docs = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md"))
    for name in DIAGRAMS:
        assert f"img/{name}" in docs, f"docs/img/{name} is drawn but no doc shows it"


def test_the_configs_defaults_are_the_wiring_tables():
    config = Config()
    assert {r.slot: r.reset_pin for r in config.readers} == pins.READER_RESET
    assert {r.slot: r.device for r in config.readers} == pins.READER_DEVICE
    assert config.keypad.rows == pins.KEYPAD_ROWS and config.keypad.columns == pins.KEYPAD_COLUMNS
    assert config.buzzer_pin == pins.BUZZER
    assert (config.display.port, config.display.address) == (pins.DISPLAY_I2C_PORT, pins.DISPLAY_ADDRESS)
    assert (config.display.dc_pin, config.display.reset_pin) == (pins.DISPLAY_SPI_DC, pins.DISPLAY_SPI_RESET)
    assert parse_config("") == config  # an empty file takes the same defaults


def test_the_wiring_table_is_consistent():
    used = {}
    for wire in pins.WIRES:
        assert wire.device in pins.DEVICES and 1 <= wire.pin <= 40
        if wire.gpio is not None and wire.device != "rdm6300":
            used.setdefault(wire.pin, set()).add(wire.terminal.split()[0])
    shared = {pin for pin, terminals in used.items() if len(terminals) > 1}
    assert not shared, f"header pins given to two kinds of line: {sorted(shared)}"
    spi = {pins.header_pin(g) for g in (9, 10, 11)}  # MISO, MOSI, SCLK: the only lines the two readers share
    both = {w.pin for w in pins.wires_of("+ reader")} & {w.pin for w in pins.wires_of("- reader")}
    assert both == spi
    assert pins.HEADER[pins.wires_of("rdm6300")[0].pin] == "GPIO15"  # the UART's RXD, through the divider
    assert all(h != "5V" for w in pins.WIRES if w.device in ("+ reader", "- reader", "display")
               for h in [pins.HEADER[w.pin]])  # the RC522s and the OLED are 3.3 V parts
