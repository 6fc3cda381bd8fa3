"""The OLED frames of the main screens, pixel for pixel against reference PNGs.

To redraw the references after a deliberate change of the look, set
REGENERATE = False, run this file once (its tests then fail on purpose, so the
switch can't be committed on), look at the new PNGs, and set it back.
"""

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from banker.unit.screen import Screen
from render import HEIGHT, WIDTH, render_image

REGENERATE = False
REFERENCE = Path(__file__).resolve().parents[1] / "reference"


def _idle(t):
    pass


def _one_card(t):
    t.insert("left", "Alice")


def _typing(t):
    t.insert("right", "Bob")
    t.type("1.5")


def _transfer(t):
    t.insert("left", "Alice")
    t.insert("right", "Bob")
    t.type("2.5M")


def _refused(t):
    t.insert("right", "Bob")
    t.type("20M")


def _volume(t):
    t.press(".")


def _new_game(t):
    t.hold("C", 3)


def _unknown(t):
    t.insert("left", "Stranger")


def _worth(t):
    t.insert("left", "Alice")
    t.keys("FN", "GO", "0")


SCREENS = {
    "idle": _idle, "one-card": _one_card, "typing": _typing, "transfer": _transfer,
    "refused": _refused, "volume": _volume, "new-game": _new_game, "unknown-card": _unknown, "worth": _worth,
}


def frame_after(steps, table) -> Image.Image:
    steps(table)
    return render_image(table.shell.screen)


@pytest.mark.parametrize("name", SCREENS)
def test_screen_matches_its_reference(name, table):
    image = frame_after(SCREENS[name], table)
    assert image.size == (WIDTH, HEIGHT) and image.mode == "1"
    path = REFERENCE / f"{name}.png"
    if REGENERATE:
        image.save(path)
        pytest.fail(f"regenerated {path}: look at it, then set REGENERATE = True")
    reference = Image.open(path).convert("1")
    assert ImageChops.logical_xor(image, reference).getbbox() is None, f"{name} differs from {path}"


def lit(image, box) -> int:
    """How many pixels are on in ``box``."""
    return image.crop(box).convert("L").histogram()[255]


def test_a_sleeping_screen_is_dark():
    assert render_image(Screen(asleep=True)).getbbox() is None


def test_status_bar_shows_occupied_readers_and_volume():
    empty = render_image(Screen(lines=("x",), volume=0))
    both = render_image(Screen(lines=("x",), left=True, right=True, volume=3))
    assert lit(both, (0, 0, 26, 10)) > lit(empty, (0, 0, 26, 10))
    assert lit(both, (110, 0, 128, 10)) > lit(empty, (110, 0, 128, 10))


def test_a_refusal_is_drawn_inverted():
    plain = render_image(Screen(lines=("Refused",)))
    error = render_image(Screen(lines=("Refused",), error=True))
    assert lit(error, (0, 12, 128, 64)) > 4 * lit(plain, (0, 12, 128, 64))


def test_every_line_fits_the_panel():
    long = Screen(lines=("W" * 21, "8" * 10, "W" * 21), big=1)
    image = render_image(long)
    assert image.getbbox()[2] <= WIDTH


@pytest.mark.parametrize("name", ["Łukasz", "Żaneta", "Đorđe", "Œdipe", "日本", "Ωmega", "Zoë"])
def test_a_name_outside_the_fonts_letters_is_drawn_as_its_base_letters_not_a_crash(name):
    from render.frame import drawable, render_image

    image = render_image(Screen(lines=(f"{name} +2M", "15M", "Bank paid"), big=1))
    assert image.getbbox() is not None  # drawn, not a frozen screen
    shown = drawable(name)
    assert all(ord(ch) < 256 for ch in shown) and len(shown) >= 1
    assert render_image(Screen(lines=(shown,))).tobytes() == render_image(Screen(lines=(name,))).tobytes()
