"""The desktop simulator's window, driven headless like a player: clicks, drags, keyboard in; screenshots out.

Every check of the screen reads the OLED back from a screenshot of the whole
window and compares it, pixel for pixel, with the frame the Pi would show
(render_image) and with the reference PNGs of tests/reference. To redraw the
sim-*.png references after a deliberate change, set REGENERATE = True, run
this file once (those tests then fail on purpose), look at them, set it back.
"""

from pathlib import Path

import pygame
import pytest
from PIL import Image, ImageChops

from render import render_image
from firmware_sim.desktop import DesktopSim, SimClock, oled_frame
from firmware_sim.desktop.draw import SLEEP_HINT
from firmware_sim.desktop.layout import MIN_TEXT_PX, SCALES, Layout, centre, fit_scale
from firmware_sim.window_backend import WindowBackend

REGENERATE = False
REFERENCE = Path(__file__).resolve().parents[1] / "reference"


@pytest.fixture
def sim(ledger):
    with DesktopSim(ledger) as window:
        yield window


@pytest.fixture
def hand(sim) -> WindowBackend:
    """A player's hand at the window: it clicks, drags and types (in simulated time)."""
    return WindowBackend(sim)


def oled(sim) -> Image.Image:
    """The OLED frame as read back from a screenshot of the window."""
    return oled_frame(sim.screenshot(), sim.layout)


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.logical_xor(a.convert("1"), b.convert("1")).getbbox() is None


def shows_the_units_screen(sim) -> bool:
    return same(oled(sim), render_image(sim.shell.screen))


def click(hand, *keys):
    for key in keys:
        hand.press(key)


def drag_card(hand, sim, name, reader):
    uid = sim.ledger.game().card_by_name(name).uid
    hand.drag(centre(sim.tile_rect(uid)), centre(sim.layout.slot(reader)))


# -- the OLED: exactly the Pi's frame ------------------------------------------------------------


def test_the_window_opens_on_the_idle_screen(sim):
    assert sim.surface.get_size() == sim.layout.size
    assert shows_the_units_screen(sim)
    assert same(oled(sim), Image.open(REFERENCE / "idle.png"))


def _one_card(hand, sim):
    drag_card(hand, sim, "Alice", "left")


def _typing(hand, sim):
    drag_card(hand, sim, "Bob", "right")
    click(hand, "1", ".", "5")


def _transfer(hand, sim):
    drag_card(hand, sim, "Alice", "left")
    drag_card(hand, sim, "Bob", "right")
    click(hand, "2", ".", "5", "M")


def _refused(hand, sim):
    drag_card(hand, sim, "Bob", "right")
    click(hand, "2", "0", "M")


def _volume(hand, sim):
    click(hand, ".")


def _new_game(hand, sim):
    hand.hold("C", 3)


def _unknown(hand, sim):
    hand.insert("left", "Stranger")  # a card nobody enrolled, dragged from the tray


STATES = {"one-card": _one_card, "typing": _typing, "transfer": _transfer, "refused": _refused,
          "volume": _volume, "new-game": _new_game, "unknown-card": _unknown}


@pytest.mark.parametrize("name", STATES)
def test_the_oled_area_is_the_pis_frame_and_its_reference(name, hand, sim):
    STATES[name](hand, sim)
    frame = oled(sim)
    assert same(frame, render_image(sim.shell.screen))
    assert same(frame, Image.open(REFERENCE / f"{name}.png")), f"the window's OLED differs from {name}.png"


def _passed_go(hand, sim):
    drag_card(hand, sim, "Bob", "left")
    click(hand, "GO")


def _enrolled(hand, sim):
    blank = sim.tiles()[-1]
    assert blank.blank and blank.label == "New card"
    hand.drag(centre(sim.tile_rect(blank.uid)), centre(sim.layout.slot("left")))
    click(hand, "FN")


def _same_card(hand, sim):
    hand.hotkey(1, shift=False)
    hand.hotkey(1, shift=True)


SIM_STATES = {"passed-go": _passed_go, "enrolled": _enrolled, "same-card": _same_card}


@pytest.mark.parametrize("name", SIM_STATES)
def test_more_screens_match_their_sim_references(name, hand, sim):
    SIM_STATES[name](hand, sim)
    frame = oled(sim)
    assert same(frame, render_image(sim.shell.screen))
    path = REFERENCE / f"sim-{name}.png"
    if REGENERATE:
        frame.save(path)
        pytest.fail(f"regenerated {path}: look at it, then set REGENERATE = False")
    assert same(frame, Image.open(path)), f"the window's OLED differs from {path.name}"


def test_the_oled_is_pixel_crisp_at_every_scale(ledger):
    for scale in (2, 3, 5):
        with DesktopSim(ledger, scale=scale, sound=False) as sim:
            hand = WindowBackend(sim)
            _transfer(hand, sim)
            assert sim.layout.oled[2:] == (128 * scale, 64 * scale)
            assert shows_the_units_screen(sim)


def test_every_offered_scale_keeps_the_smallest_text_legible():
    assert SCALES[0] >= 2 and SCALES[-1] == 8
    for scale in SCALES:
        layout = Layout(scale)
        assert min(layout.font_px(kind) for kind in ("key", "text", "small", "title")) >= MIN_TEXT_PX
    with pytest.raises(ValueError):
        Layout(1)


def test_the_window_fits_the_screen_it_opens_on():
    assert fit_scale((1920, 1080)) == 3
    assert fit_scale((1366, 768)) == 2
    assert fit_scale((800, 600)) == SCALES[0]  # the smallest still legible, even if it does not fit
    assert fit_scale(None) == 3 and fit_scale((3840, 2160), wanted=5) == 5


def test_a_card_laid_on_another_makes_the_reader_report_two_cards(hand, sim, ledger):
    hand.insert("right", "Bob")
    hand.stack("right", "Alice")  # Alt+F1 on the - reader
    assert sim.shell.screen.shows("Two cards on -")
    assert sim.table.reader_of(ledger.game().card_by_name("Alice").uid) == ["right"]
    assert shows_the_units_screen(sim)
    alice = ledger.game().card_by_name("Alice").uid
    hand.drag(centre(sim.tile_rect(alice, "right")), centre(sim.layout.tray))  # the top card taken away
    assert sim.shell.panel.right == ledger.game().card_by_name("Bob").uid and sim.shell.screen.shows("Bob")


def test_oled_frame_refuses_a_smoothed_picture(sim):
    shot = sim.screenshot()
    blurred = shot.resize((shot.width // 2, shot.height // 2), Image.BILINEAR).resize(shot.size, Image.BILINEAR)
    with pytest.raises(ValueError):
        oled_frame(blurred, sim.layout)


# -- keys: mouse and keyboard, with a visible press ----------------------------------------------


def key_face(sim, key):
    x, y, w, h = sim.layout.key(key)
    return sim.screenshot().crop((x, y - 2 * sim.layout.scale, x + w, y + h + 2 * sim.layout.scale))


def test_a_clicked_key_looks_pressed_while_the_button_is_down(hand, sim):
    up = key_face(sim, "5")
    hand.click_down(centre(sim.layout.key("5")))
    down = key_face(sim, "5")
    assert ImageChops.difference(up, down).getbbox() is not None
    assert sim.shell.panel.entry.shown().startswith("5")
    hand.click_up(centre(sim.layout.key("5")))
    assert ImageChops.difference(up, key_face(sim, "5")).getbbox() is None


def test_typed_keys_look_pressed_and_reach_the_unit(hand, sim, ledger):
    hand.hotkey(1, shift=False)  # F1: Alice on +
    for key in (pygame.K_1, pygame.K_PERIOD, pygame.K_5):
        hand.keystroke(key)
    up = key_face(sim, "M")
    hand.key_down(pygame.K_m)
    assert ImageChops.difference(up, key_face(sim, "M")).getbbox() is not None
    hand.key_up(pygame.K_m)
    assert ledger.game().balance(ledger.game().card_by_name("Alice").id) == 16_500_000
    assert sim.shell.screen.shows("Alice +1.5M")
    assert shows_the_units_screen(sim)


def test_g_and_the_right_arrow_pass_go_and_f_enrols(hand, sim, ledger):
    hand.hotkey(2, shift=False)  # Bob on +
    hand.keystroke(pygame.K_g)
    hand.keystroke(pygame.K_RIGHT)
    assert ledger.game().balance(ledger.game().card_by_name("Bob").id) == 19_000_000
    hand.hotkey(2, shift=False)  # Bob off again
    hand.hotkey(len(sim.tiles()), shift=True)  # the blank card on -
    hand.keystroke(pygame.K_f)
    assert sim.shell.screen.shows("Enrolled") and ledger.game().card_by_name("Player 1") is not None


def test_c_held_on_the_keyboard_starts_a_new_game(hand, sim, ledger):
    hand.hotkey(1, shift=True)
    click(hand, "1", "M")
    hand.hotkey(1, shift=True)  # Alice taken off again
    hand.keystroke(pygame.K_c, seconds=2.5)
    assert sim.shell.screen.shows("New game") and ledger.game().id == 2
    assert ledger.game().balances_by_name() == {"Alice": 15_000_000, "Bob": 15_000_000}


def test_a_key_held_by_the_mouse_and_the_keyboard_goes_down_once(hand, sim):
    hand.click_down(centre(sim.layout.key("7")))
    hand.key_down(pygame.K_7)
    hand.key_up(pygame.K_7)
    hand.click_up(centre(sim.layout.key("7")))
    assert sim.shell.panel.entry.shown().startswith("7") and "77" not in sim.shell.panel.entry.shown()


# -- cards: drag onto the slots and back, hotkeys ------------------------------------------------


def test_a_card_dragged_onto_a_slot_lies_on_that_reader_and_back_off(hand, sim, ledger):
    alice = ledger.game().card_by_name("Alice").uid
    drag_card(hand, sim, "Alice", "left")
    assert sim.shell.panel.left == alice and sim.table.on["left"] == alice
    assert same(oled(sim), Image.open(REFERENCE / "one-card.png"))
    hand.drag(centre(sim.tile_rect(alice, "left")), centre(sim.layout.slot("right")))  # moved to -
    assert (sim.shell.panel.left, sim.shell.panel.right) == (None, alice)
    hand.drag(centre(sim.tile_rect(alice, "right")), centre(sim.layout.tray))  # back to the tray
    assert (sim.shell.panel.left, sim.shell.panel.right) == (None, None)
    assert same(oled(sim), Image.open(REFERENCE / "idle.png"))


def test_a_card_dropped_beside_the_slots_stays_in_the_tray(hand, sim):
    alice = sim.tiles()[0]
    hand.drag(centre(sim.tile_rect(alice.uid)), centre(sim.layout.bezel))
    assert sim.table.on == {"left": None, "right": None} and sim.shell.panel.left is None


def test_a_card_dropped_on_an_occupied_slot_takes_its_place(hand, sim, ledger):
    drag_card(hand, sim, "Alice", "left")
    drag_card(hand, sim, "Bob", "left")
    assert sim.shell.panel.left == ledger.game().card_by_name("Bob").uid
    assert sim.shell.screen.shows("+ Bob")


def test_the_dragged_card_follows_the_mouse(hand, sim):
    alice = sim.tiles()[0]
    start = centre(sim.tile_rect(alice.uid))
    hand.click_down(start)
    before = sim.screenshot()
    hand.move_to((start[0], start[1] + 40))
    assert ImageChops.difference(before, sim.screenshot()).getbbox() is not None
    hand.click_up((start[0], start[1] + 40))


def test_hotkeys_toggle_cards_on_each_reader(hand, sim, ledger):
    bob = ledger.game().card_by_name("Bob").uid
    hand.hotkey(2, shift=True)
    assert sim.shell.panel.right == bob
    hand.hotkey(1, shift=False)
    click(hand, "6", "0", "K")
    assert sim.shell.screen.shows("Paid 60K")
    hand.hotkey(2, shift=True)
    assert sim.shell.panel.right is None


def test_a_card_taken_away_mid_entry_cancels(hand, sim, ledger):
    drag_card(hand, sim, "Alice", "right")
    click(hand, "5")
    hand.remove("right")
    assert sim.shell.screen.shows("Cancelled") and ledger.game().balances_by_name()["Alice"] == 15_000_000


# -- time, sleep and sound -----------------------------------------------------------------------


def test_the_window_ticks_in_real_time_and_the_screen_sleeps(ledger):
    now = [100.0]
    with DesktopSim(ledger, clock=SimClock(real=lambda: now[0])) as sim:
        sim.frame()
        now[0] += 30
        sim.frame()
        assert shows_the_units_screen(sim) and oled(sim).getbbox() is not None
        now[0] += 31
        sim.frame()
        assert sim.shell.panel.asleep and oled(sim).getbbox() is None
        assert sim.painter.hint == SLEEP_HINT  # under the dark screen: how to wake it
        hand = WindowBackend(sim)
        hand.press("5")  # only wakes it
        assert not sim.shell.panel.asleep and sim.shell.panel.entry.empty
        assert same(oled(sim), Image.open(REFERENCE / "idle.png"))
        assert sim.painter.hint is None


def test_a_frozen_clock_thaws_where_it_stood():
    now = [10.0]
    clock = SimClock(real=lambda: now[0])
    clock.freeze()
    clock.advance(5)
    now[0] = 50.0
    assert clock() == 15.0
    clock.thaw()
    now[0] = 51.0
    assert clock() == 16.0


def test_the_buzzer_plays_the_units_tones_at_its_volume(hand, sim):
    click(hand, "1")
    click(hand, ".", "C")  # . with an entry is a point; C clears
    click(hand, ".")  # nothing typed, no card: the volume steps to high
    assert sim.buzzer.played[:3] == [("key", 2)] * 3
    assert sim.buzzer.played[-1] == ("volume", 3)
    assert sim.buzzer.audible  # SDL's dummy audio driver: sound is produced, nobody hears it


def test_closing_the_window_ends_the_loop(sim):
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    sim.run()
    assert not sim.running


def test_ctrl_q_quits(hand, sim):
    hand.key_down(pygame.K_q, ctrl=True)
    assert not sim.running


def test_more_cards_than_the_tray_holds_still_play(hand, sim, ledger):
    for n in range(6):
        hand.enrol(f"P{n}", f"C{n}")  # 8 players, the blank card and ...
    for n in range(4):
        hand.insert("left", f"Stranger{n}")  # ... four unknown cards: one more than the tray's 12
        hand.remove("left")
    hand.insert("right", "Stranger3")
    assert sim.shell.screen.shows("Unknown card") and shows_the_units_screen(sim)
    hand.remove("right")
    assert sim.shell.panel.right is None and shows_the_units_screen(sim)
