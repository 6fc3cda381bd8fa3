"""The matrix keypad driver on a simulated membrane keypad (gpiozero MockFactory): what a finger on the keys produces."""

from __future__ import annotations

import random
import threading
import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from banker.errors import ConfigError
from banker.unit.events import KEYS, CardPlaced, KeyDown, KeyUp
from drivers.keypad import DEFAULT_KEYMAP, SCAN_INTERVAL, STOCK_LEGENDS, MatrixKeypad, parse_keymap
from runtime.ledger import SqliteLedger
from runtime.shell import Shell
from firmware_sim.keypad_sim import KeypadMatrix, ManualClock
from tests.hw.threads import WAIT, scanning

SCAN = SCAN_INTERVAL   # seconds between scans, as the driver's thread does (2 ms)
DEBOUNCE = 0.02        # the release's debounce, the driver's default


class Bench:
    """A keypad on the bench: the copper, the driver, and a clock that moves a scan at a time."""

    def __init__(self, keymap=None, factory=None, **driver_options):
        self.factory = factory or MockFactory()
        self.matrix = KeypadMatrix(self.factory, keymap=keymap)
        self.clock = ManualClock(100.0)
        self.stuck: list[str] = []
        self.keypad = MatrixKeypad(pin_factory=self.factory, keymap=keymap, clock=self.clock,
                                   on_stuck=self.stuck.append, **driver_options)
        self.events = self.keypad.scan_once()

    def run(self, seconds: float, every: float = SCAN) -> list:
        """Scan every ``every`` seconds (2 ms) for ``seconds``; return the events."""
        events = []
        for _ in range(round(seconds / every)):
            self.clock.advance(every)
            events += self.keypad.scan_once()
        self.events += events
        return events

    def contact(self, key: str, *levels: tuple[bool, int]) -> list:
        """The key's contact as a finger and its bounce make it: (closed?, for how many scans), in turn."""
        events = []
        for closed, scans in levels:
            (self.matrix.press if closed else self.matrix.release)(key)
            events += self.run(scans * SCAN)
        return events

    def tap(self, key: str, seconds: float = 0.1) -> list:
        self.matrix.press(key)
        events = self.run(seconds)
        self.matrix.release(key)
        return events + self.run(0.05)


@pytest.fixture
def bench():
    b = Bench()
    yield b
    b.keypad.close()


def kinds(events):
    return [(type(e).__name__, e.key) for e in events]


def test_every_key_on_the_matrix_becomes_keydown_then_keyup_of_that_key(bench):
    for key in KEYS:
        assert kinds(bench.tap(key)) == [("KeyDown", key), ("KeyUp", key)]


def test_contact_bounce_of_a_few_ms_gives_one_press(bench):
    m = bench.matrix
    for _ in range(3):                        # 2 ms on, 2 ms off, three times
        m.press("5"); bench.run(SCAN)
        m.release("5"); bench.run(SCAN)
    m.press("5"); bench.run(0.2)
    for _ in range(2):                        # and it bounces on release too
        m.release("5"); bench.run(2 * SCAN)
        m.press("5"); bench.run(SCAN)
    m.release("5"); bench.run(0.1)
    assert kinds(bench.events) == [("KeyDown", "5"), ("KeyUp", "5")]


def test_a_press_that_bounces_after_it_is_confirmed_is_still_one_press(bench):
    down = bench.contact("5", (True, 2), (False, 1), (True, 1), (False, 3), (True, 1), (False, 2), (True, 50))
    assert kinds(down) == [("KeyDown", "5")]            # confirmed on the second scan, the bounce after it ignored
    assert kinds(bench.contact("5", (False, 20))) == [("KeyUp", "5")]


def test_a_noise_glitch_of_one_scan_is_never_a_press(bench):
    for _ in range(50):                       # a column pulled low for one scan, again and again
        bench.contact("8", (True, 1), (False, 1))
    assert bench.events == []


def test_a_release_that_bounces_gives_one_keyup_twenty_ms_after_the_bounce(bench):
    bench.contact("3", (True, 50))
    events = bench.contact("3", (False, 1), (True, 1), (False, 3), (True, 2), (False, 2), (True, 1))
    assert events == []                       # 18 ms of bounce: still down
    t_open = bench.clock() + SCAN             # the contact opens for good at the next scan
    up = bench.contact("3", (False, 15))
    assert kinds(up) == [("KeyUp", "3")] and up[0].t == pytest.approx(t_open + DEBOUNCE, abs=1e-6)
    assert kinds(bench.contact("3", (True, 1), (False, 20))) == []     # a one-scan blip afterwards is no press


def test_any_bounce_shorter_than_the_debounce_gives_exactly_one_press_and_one_release(bench):
    rng = random.Random(19)

    def bounce(closing: bool) -> list:
        """Chatter as the contact closes or opens: open for 1-9 scans (up to 18 ms: under the debounce), closed 1-2."""
        levels = []
        for _ in range(rng.randint(0, 4)):
            open_, closed = (False, rng.randint(1, 9)), (True, rng.randint(1, 2))
            levels += [closed, open_] if closing else [open_, closed]
        return levels

    for _ in range(150):
        events = bench.contact("GO", *bounce(True), (True, rng.randint(2, 100)), *bounce(False), (False, 11))
        assert kinds(events) == [("KeyDown", "GO"), ("KeyUp", "GO")]


def test_a_press_counts_two_to_four_ms_after_the_contact_closes_and_a_release_twenty_to_twenty_two(bench):
    def at(phase: float, action) -> tuple[float, list]:
        """``action`` at ``phase`` seconds after a scan (the finger lands between two scans); then the next scan."""
        bench.clock.advance(phase)
        action("4")
        when = bench.clock()
        bench.clock.advance(SCAN - phase)
        return when, bench.keypad.scan_once() + bench.run(0.03)

    for phase in (0.0, 0.0005, 0.0013, 0.0019):
        closed, down = at(phase, bench.matrix.press)
        assert kinds(down) == [("KeyDown", "4")] and SCAN < down[0].t - closed <= 2 * SCAN + 1e-9
        opened, up = at(phase, bench.matrix.release)
        assert kinds(up) == [("KeyUp", "4")] and DEBOUNCE < up[0].t - opened <= DEBOUNCE + SCAN + 1e-9


def test_a_new_press_of_a_key_counts_only_once_its_release_was_confirmed(bench):
    events = bench.contact("6", (True, 10), (False, 8), (True, 10), (False, 12))
    assert kinds(events) == [("KeyDown", "6"), ("KeyUp", "6")]        # 16 ms apart: one press (it could be bounce)
    events = bench.contact("6", (True, 10), (False, 12), (True, 10), (False, 12))
    assert kinds(events) == [("KeyDown", "6"), ("KeyUp", "6")] * 2     # 24 ms apart: two presses


@pytest.mark.parametrize("options, presses", [({}, 1), ({"press_confirm": DEBOUNCE}, 0)])
def test_a_ten_ms_blip_is_a_press_but_not_with_the_symmetric_debounce(options, presses):
    b = Bench(**options)
    b.contact("7", (True, 5), (False, 50))
    assert kinds(b.events) == [("KeyDown", "7"), ("KeyUp", "7")] * presses
    b.keypad.close()


def test_the_symmetric_debounce_counts_a_press_after_twenty_ms():
    b = Bench(press_confirm=DEBOUNCE)
    down = b.contact("9", (True, 2), (False, 1), (True, 12))
    assert kinds(down) == [("KeyDown", "9")] and down[0].t == pytest.approx(100.0 + 4 * SCAN + DEBOUNCE, abs=1e-6)
    b.keypad.close()


def test_a_held_c_gives_keydown_then_keyup_three_seconds_later(bench):
    events = bench.tap("C", seconds=3.0)
    down, up = events
    assert isinstance(down, KeyDown) and isinstance(up, KeyUp)
    # confirmed 2 ms after it closed and 20 ms after it opened: the core sees an 18 ms longer hold
    assert up.t - down.t == pytest.approx(3.0 + DEBOUNCE - SCAN, abs=SCAN)


def test_a_stuck_key_is_reported_once_released_to_the_unit_and_then_ignored():
    b = Bench(stuck_after=30.0)
    b.matrix.press("9")
    events = b.run(60.0, every=0.05)
    assert kinds(events) == [("KeyDown", "9"), ("KeyUp", "9")]
    assert events[1].t - events[0].t == pytest.approx(30.0, abs=0.1)
    assert b.stuck == ["9"] and b.keypad.stuck == {"9"}
    assert kinds(b.tap("1")) == [("KeyDown", "1"), ("KeyUp", "1")]     # other keys still work
    b.matrix.release("9")
    assert b.run(0.1) == []                   # its release is silent
    assert kinds(b.tap("9")) == [("KeyDown", "9"), ("KeyUp", "9")]     # and it works again
    b.keypad.close()


def test_a_key_held_while_the_unit_starts_is_ignored_until_released():
    factory = MockFactory()
    matrix = KeypadMatrix(factory)
    matrix.press("C")
    clock = ManualClock()
    with MatrixKeypad(pin_factory=factory, clock=clock) as keypad:
        events = []
        for _ in range(1000):                 # 5 s: long enough for a new game, if it counted
            clock.advance(SCAN)
            events += keypad.scan_once()
        matrix.release("C")
        for _ in range(20):
            clock.advance(SCAN)
            events += keypad.scan_once()
        assert events == []


def test_two_keys_held_in_one_column_never_short_two_driven_rows(bench):
    bench.matrix.press("2", "5", "8", "0")
    bench.run(0.1)
    assert bench.matrix.shorts == 0
    assert {e.key for e in bench.events} == {"2", "5", "8", "0"}


def test_a_stock_keypads_printed_legends_map_onto_the_units_keys():
    assert parse_keymap(STOCK_LEGENDS) == DEFAULT_KEYMAP
    b = Bench(keymap=STOCK_LEGENDS)
    assert kinds(b.tap("GO")) == [("KeyDown", "GO"), ("KeyUp", "GO")]
    b.keypad.close()


def test_a_keymap_from_config_decides_which_key_a_position_is():
    factory = MockFactory()
    matrix = KeypadMatrix(factory)            # the copper, labelled with the default layout
    turned = [list(reversed(row)) for row in DEFAULT_KEYMAP]      # a keypad mounted mirrored
    clock = ManualClock()
    with MatrixKeypad(pin_factory=factory, keymap=turned, clock=clock) as keypad:
        keypad.scan_once()
        matrix.press("1")                     # the top-left position ...
        events = []
        for _ in range(20):
            clock.advance(SCAN)
            events += keypad.scan_once()
        assert kinds(events) == [("KeyDown", "M")]     # ... is M in the mirrored map


@pytest.mark.parametrize("keymap, message", [
    ([["1", "2", "3", "X"]] + [list(r) for r in DEFAULT_KEYMAP[1:]], "unknown key"),
    ([["1", "1", "3", "M"]] + [list(r) for r in DEFAULT_KEYMAP[1:]], "twice"),
    ([list(r) for r in DEFAULT_KEYMAP[:3]], "4 row"),
])
def test_a_bad_keymap_is_a_config_error(keymap, message):
    with pytest.raises(ConfigError, match=message):
        MatrixKeypad(pin_factory=MockFactory(), keymap=keymap)


def test_the_global_pin_factory_is_never_used():
    with pytest.raises(ConfigError, match="pin_factory"):
        MatrixKeypad(pin_factory=None)


def test_the_background_scanner_posts_events():
    factory = MockFactory()
    matrix = KeypadMatrix(factory)
    got: list = []
    seen = threading.Event()

    def post(event):
        got.append(event)
        if isinstance(event, KeyUp):
            seen.set()

    with MatrixKeypad(pin_factory=factory, debounce=0.0, scan_interval=0.001) as keypad:
        keypad.start(post)
        scanning(keypad)                  # a key down before the first scan is ignored as down at start-up
        matrix.press("K")
        deadline = time.monotonic() + WAIT
        while not got and time.monotonic() < deadline:
            seen.wait(0.001)
        matrix.release("K")
        assert seen.wait(2.0)
    assert kinds(got) == [("KeyDown", "K"), ("KeyUp", "K")]


def test_amount_typed_on_the_matrix_pays_the_card_through_the_unit():
    b = Bench(factory=MockFactory(pin_class=MockPWMPin))    # the hw-sim's one factory for every pin
    with SqliteLedger(":memory:") as ledger:
        bob = ledger.enrol("Bob", "B2")
        shell = Shell(ledger, now=b.clock())
        b.keypad.post = shell.post
        shell.post(CardPlaced("right", "B2", b.clock()))
        for key in ["1", ".", "5", "M"]:
            b.tap(key)
        shell.pump()
        assert ledger.game().balance(bob.id) == 13_500_000
        assert shell.screen.shows("Bob -1.5M")
    b.keypad.close()


@pytest.mark.parametrize("toml, confirmed_after", [("", 0.004), ("[keypad]\npress_confirm = 0.02\n", 0.022)])
def test_the_configs_press_confirm_reaches_the_units_keypad(toml, confirmed_after):
    from firmware_sim.hw_sim import SimulatedHardware
    from runtime.config import parse_config
    from runtime.device import open_keypad

    config = parse_config(toml)
    with SimulatedHardware(config) as hw, open_keypad(config, hw) as keypad:
        keypad.scan_once()
        pressed = hw.clock()
        hw.matrix.press("M")
        events = []
        while not events:
            hw.clock.advance(SCAN)
            events = keypad.scan_once()
        assert kinds(events) == [("KeyDown", "M")] and events[0].t - pressed == pytest.approx(confirmed_after)
