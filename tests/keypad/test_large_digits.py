"""``[display] digits = "large"``: a balance or an amount as tall as the 128x64 frame fits, nothing cut.

The default frames are the reference PNGs of test_render.py; here the large
ones are measured: the rows of the digits, the edges, what is left out.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from banker.unit import views
from banker.errors import ConfigError
from banker.journal.records import Card
from banker.unit.screen import Screen
from drivers.display import OledDisplay
from firmware_sim.display_sim import OledChip
from render import HEIGHT, WIDTH, render_image
from runtime.config import Config, parse_config

#: Rows under the name line where the money is drawn on a balance screen (12-62), and while typing (12-51).
MONEY, TYPED = (12, 63), (12, 52)


def large(screen: Screen) -> Image.Image:
    return render_image(screen, digits="large")


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.logical_xor(a, b).getbbox() is None


def lit_in_row(image: Image.Image, y: int) -> int:
    return sum(image.getpixel((x, y)) != 0 for x in range(WIDTH))


def digit_rows(image: Image.Image, rows: tuple[int, int], text: str = "") -> int:
    """How many rows tall the digits of ``text`` are, measured on the frame: the rows the money's ink spans
    between ``rows``, less a comma's tail (2 of the font's 9 rows hang below the digits' 7)."""
    box = image.crop((0, rows[0], WIDTH, rows[1])).getbbox()
    span = box[3] - box[1]
    return span * 7 // 9 if "," in text else span


def assert_nothing_cut(image: Image.Image, rows: tuple[int, int]) -> None:
    """The money's ink stays inside its area and off the frame's edges: no glyph is clipped."""
    box = image.crop((0, rows[0], WIDTH, rows[1])).getbbox()
    assert box is not None
    assert box[0] >= 1 and box[2] <= WIDTH - 1, f"the money touches a side: {box}"
    assert box[1] >= 1 and rows[0] + box[3] <= rows[1] - 1, f"the money touches the rows around it: {box}"
    assert all(lit_in_row(image, y) == 0 for y in (HEIGHT - 1, rows[0] - 1, rows[0]))


def card_screen(table, name: str, balance: int) -> Screen:
    card = table.ledger.game().card_by_name(name)
    return views.one_card(card, balance, "left", None)


# -- a balance ---------------------------------------------------------------------------------


@pytest.mark.parametrize("balance, shown, height", [
    (15_000_000, "15M", 49), (850_000, "850K", 49), (16_500_000, "16.5M", 49), (-500_000, "-500K", 49),
    (14_151_000, "14.151M", 42), (-99_990_000, "-99.99M", 42),
    (-12_345_000, "-12.345M", 28), (15_001_234, "15,001,234", 28), (-15_001_234, "-15,001,2~", 28),
])
def test_a_balance_is_drawn_as_tall_as_it_fits_and_never_cut(table, balance, shown, height):
    screen = card_screen(table, "Alice", balance)
    assert screen.lines[1] == shown
    image = large(screen)
    assert digit_rows(image, MONEY, shown) == height
    assert_nothing_cut(image, MONEY)


def test_the_card_on_the_reader_shows_its_balance_seven_times_the_font_and_three_times_todays(table):
    table.insert("left", "Alice")
    image = large(table.shell.screen)
    assert digit_rows(image, MONEY) == 49
    today = render_image(table.shell.screen)
    assert digit_rows(today, (26, 48)) == 14


def test_a_balance_keeps_its_name_line_and_drops_the_status_bar_and_the_hint(table):
    table.insert("left", "Alice")
    screen = table.shell.screen
    assert screen.lines == ("+ Alice", "15M", "Bank pays Alice")
    image = large(screen)
    assert same(image, large(replace(screen, lines=screen.lines[:2], left=False, volume=0)))
    today = render_image(screen)                       # its name line's cell at rows 12-22, under the status bar
    assert same(image.crop((0, 0, WIDTH, 11)), today.crop((0, 12, WIDTH, 23)))


def test_an_accent_over_a_capital_in_the_name_line_stays_on_the_panel():
    screen = views.one_card(Card(1, "E1", "Émile"), 15_000_000, "left", None)
    from tests.keypad.frames_support import disagreements

    assert not [problem for problem in disagreements(screen, "large") if problem.startswith("line 1")]


def test_the_paid_screen_shows_the_new_balance_large(table):
    table.insert("left", "Alice")
    table.type("1.5M")
    assert table.shell.screen.lines[:2] == ("Alice +1.5M", "16.5M")
    image = large(table.shell.screen)
    assert digit_rows(image, MONEY) == 49
    assert_nothing_cut(image, MONEY)


# -- an amount being typed ---------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["1", "1.5", "12.345", "1.2345", "99999", ".0001"])
def test_an_amount_being_typed_is_large_with_the_hint_small_below(table, typed):
    table.insert("right", "Bob")
    table.type(typed)
    screen = table.shell.screen
    assert screen.lines[1] == typed + "_"
    image = large(screen)
    assert digit_rows(image, TYPED) == 35
    assert_nothing_cut(image, TYPED)
    hint = image.crop((0, TYPED[1], WIDTH, HEIGHT))
    assert hint.getbbox() is not None                  # "then M or K", small, under the digits
    assert not same(image, large(replace(screen, lines=screen.lines[:2])))


def test_the_payers_balance_stays_under_an_amount_typed_between_two_cards(table):
    table.insert("left", "Alice")
    table.insert("right", "Bob")
    table.type("2.5")
    screen = table.shell.screen
    assert screen.lines[2].startswith("- Bob")
    image = large(screen)
    assert image.crop((0, TYPED[1], WIDTH, HEIGHT)).getbbox() is not None
    assert digit_rows(image, TYPED) == 35


# -- screens that stay as today ----------------------------------------------------------------


def _refused(t):
    t.insert("right", "Bob")
    t.type("20M")


def _transfer(t):
    t.insert("left", "Alice")
    t.insert("right", "Bob")
    t.type("2.5M")


AS_TODAY = {
    "idle": lambda t: None, "refused": _refused, "transfer": _transfer, "volume": lambda t: t.press("."),
    "unknown card": lambda t: t.insert("left", "Stranger"), "holding C": lambda t: t.hold("C", 1),
    "too long": lambda t: (t.insert("left", "Alice"), t.type("123456")),
    "FN menu": lambda t: t.press("FN"),
}


@pytest.mark.parametrize("name", AS_TODAY)
def test_screens_without_a_balance_or_an_amount_look_as_today(table, name):
    AS_TODAY[name](table)
    screen = table.shell.screen
    assert same(large(screen), render_image(screen)), table.shell.screen.lines


@pytest.mark.parametrize("screen", [
    views.screen("Alice worth", "20M", "Cash 15M", "End value 18M", big=1),     # three figures: read at the unit
    views.screen("Enter PIN", "**_", "then M.  C: cancel", big=1),
    views.join_code("http://192.168.1.20:8080/t", "Scan to", "follow"),
    views.refused("Alice short 5M", "Balance 10M"),
])
def test_a_figure_table_a_pin_a_qr_code_and_a_refusal_look_as_today(screen):
    assert same(large(screen), render_image(screen))


def test_the_default_is_todays_look(table):
    table.insert("left", "Alice")
    screen = table.shell.screen
    assert same(render_image(screen), render_image(screen, digits="normal"))
    assert not same(render_image(screen), large(screen))


def test_an_unknown_digits_value_is_refused():
    with pytest.raises(ValueError, match="digits must be one of normal, large"):
        render_image(Screen(), digits="huge")


# -- the config, the driver --------------------------------------------------------------------


def test_the_config_takes_digits_large_and_defaults_to_normal():
    assert Config().display.digits == "normal"
    assert parse_config("[display]\ndigits = \"large\"\n").display.digits == "large"


@pytest.mark.parametrize("text, message", [
    ("[display]\ndigits = \"huge\"\n", "display.digits must be one of normal, large, not 'huge'"),
    ("[display]\ndigits = 2\n", "display.digits must be str"),
])
def test_a_bad_digits_value_is_refused_naming_its_key(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(text, "banker.toml")


@pytest.mark.parametrize("chip_name", ["ssd1306", "sh1106"])
def test_the_display_driver_sends_the_large_frame(chip_name):
    chip = OledChip(chip_name)
    alice = Screen(lines=("+ Alice", "15M", "Bank pays Alice"), big=1, left=True)
    with OledDisplay(chip=chip_name, interface=chip, digits="large") as display:
        for screen in (alice, Screen(lines=("Bank pays Alice", "1.5_", "then M or K"), big=1), alice):
            display.show(screen)
            assert same(chip.image().convert("1"), large(screen))


def typing(typed: str) -> Screen:
    return Screen(lines=("Bank pays Alice", typed + "_", "then M or K"), big=1)


@pytest.mark.parametrize("chip_name", ["ssd1306", "sh1106"])
def test_a_digit_typed_in_large_digits_moves_nothing_already_shown(chip_name):
    """The typed amount keeps one size and starts at the left: a key sends only the new digit's columns."""
    chip = OledChip(chip_name)
    with OledDisplay(chip=chip_name, interface=chip, digits="large") as display:
        for typed in ("1", "1.", "1.2", "1.23", "1.234", "1.2345"):
            display.show(typing(typed[:-1]))
            chip.reset_counters()
            display.show(typing(typed))
            changed = ImageChops.logical_xor(large(typing(typed[:-1])), large(typing(typed))).getbbox()
            assert changed[2] - changed[0] <= 2 * 18, typed           # the new glyph's cell and the cursor's
            assert chip.reset_counters().wire_bytes < 0.25 * 1024


def test_the_configured_unit_opens_its_display_with_large_digits():
    from firmware_sim.hw_sim import SimulatedHardware
    from runtime.device import open_display

    config = parse_config("[display]\ndigits = \"large\"\n")
    hw = SimulatedHardware(config)
    alice = Screen(lines=("+ Alice", "15M"), big=1)
    with open_display(config, hw) as display:
        display.show(alice)
        assert same(hw.oled.image().convert("1"), large(alice))


# -- the simulator ------------------------------------------------------------------------------


@pytest.fixture
def headless(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


def test_banker_sim_honours_the_configs_digits(headless, tmp_path):
    from click.testing import CliRunner

    from banker_cli.sim import sim_command
    from firmware_sim.desktop import Layout, oled_frame

    config, play, shot = tmp_path / "banker.toml", tmp_path / "play.kps", tmp_path / "end.png"
    config.write_text('[display]\ndigits = "large"\n')
    play.write_text("enrol Alice A1\ninsert left Alice\nexpect screen 15M\n")
    result = CliRunner().invoke(sim_command, ["--config", str(config), "--script", str(play), "--screenshot", str(shot)])
    assert result.exit_code == 0, result.output
    alice = Screen(lines=("+ Alice", "15M", "Bank pays Alice"), big=1, left=True)
    assert same(oled_frame(Image.open(shot), Layout(3)), large(alice))

    config.write_text('[display]\ndigits = "huge"\n')
    result = CliRunner().invoke(sim_command, ["--config", str(config), "--script", str(play), "--screenshot", str(shot)])
    assert result.exit_code == 2 and "display.digits must be one of normal, large" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)     # a message, no traceback
