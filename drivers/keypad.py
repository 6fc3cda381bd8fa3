"""The 4x4 matrix keypad driver: scans rows and columns through gpiozero, debounces, posts KeyDown/KeyUp.

Columns are inputs with the Pi's pull-ups. Between scans every row is
driven low, so a scan with no key down reads the four columns and is done;
only when a column reads low are the rows scanned one by one: that row
driven low, the others floating (inputs without a pull), so two keys held in
one column never short a high row output to a low one (no row is ever driven
high: a row switched to an output starts low). The matrix is read every
``scan_interval`` (2 ms).

Each key is debounced on its own, asymmetrically ("confirm the press
quickly, debounce the release"):

- a **press** counts once the key has read down on two scans in a row at
  least ``press_confirm`` (2 ms) apart: 2-4 ms after the contact closes. A
  single scan that reads it down (a noise spike) is never a press;
- from then the key **stays down** until it has read up for ``debounce``
  (20 ms) without a break: every down read restarts the count. So the bounce
  that follows the press can never end it early, the bounce of the release
  can never make a second press, and a new press of the key needs it to
  have been confirmed up first.

Why this is as safe against bounce as waiting 20 ms on both sides: one
press read as two (a payment made twice) needs the key to be seen up and
then down again, and that can only happen on the release side, where the
window is still the full 20 ms, the longest contact bounce membrane keypads
are specified for (flat membranes under 3-5 ms, metal domes under 10 ms,
polyester domes under 20 ms; docs/performance.md): keep it there. Bounce
while closing only delays the press's confirmation, or, once it is
confirmed, holds the key down. What it costs: a pulse that pulls a column low on two scans
2 ms apart would be a press; the columns sit on the Pi's pull-ups behind a
few cm of ribbon, where what couples in (ESD, a switching edge nearby) lasts
nanoseconds to microseconds, so a 2 ms low is a contact closing, not noise.
A finger that only half-closes a dome for a few ms (which the symmetric
debounce ignored) now counts, as the contact did close. Setting
``press_confirm`` equal to ``debounce`` gives the symmetric debounce back
(``[keypad] press_confirm``, docs/config.md).

KeyDown and KeyUp carry the times they were confirmed, so a long press
(``C`` held for a new game) is measured by the core from those times: it
reads ``debounce - press_confirm`` (18 ms) longer than the finger held it.

A key that reads down for longer than ``stuck_after`` seconds is reported
once (log warning and ``on_stuck(key)``), released towards the core with a
KeyUp, and then ignored until it reads up. A key already down at the first
scan (held, or stuck, while the unit starts) is ignored the same way, so a
stuck ``C`` cannot start a new game at power-up.

Membrane keypads have no diodes: three keys held at the corners of a
rectangle make the fourth read down (ghosting). The unit needs one key at a
time, so this is accepted, not decoded.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from collections.abc import Callable, Iterable, Sequence

from banker.errors import ConfigError
from banker.unit.events import KEYS, Event, KeyDown, KeyUp

from .supervised import Supervised

log = logging.getLogger("banker.keypad")

#: The unit's layout (docs/keypad.md), row by row.
DEFAULT_KEYMAP: tuple[tuple[str, ...], ...] = tuple(tuple(KEYS[r * 4:r * 4 + 4]) for r in range(4))
#: What a stock 4x4 membrane keypad prints, in the same positions.
STOCK_LEGENDS: tuple[tuple[str, ...], ...] = (
    ("1", "2", "3", "A"), ("4", "5", "6", "B"), ("7", "8", "9", "C"), ("*", "0", "#", "D"))
#: A stock legend that is not one of the unit's key names -> the unit's key at that position.
LEGEND_KEYS = {"A": "M", "B": "K", "D": "FN", "*": ".", "#": "GO"}

#: Default BCM pins: rows on header pins 29, 31, 33, 35; columns on 32, 36, 38, 40.
DEFAULT_ROWS = (5, 6, 13, 19)
DEFAULT_COLUMNS = (12, 16, 20, 21)
#: Seconds between scans: an idle scan reads only the columns, so scanning often costs little.
SCAN_INTERVAL = 0.002
#: Seconds a key must read down (on two scans at least) before its press counts; its release takes ``debounce``.
PRESS_CONFIRM = 0.002
#: Down reads in a row a press needs: one scan that reads a key down is never a press.
PRESS_READS = 2
#: Clock slack in the debounce: scan times summed in floating point may fall a hair short of it.
_SLACK = 1e-6


def parse_keymap(rows: Iterable[Iterable[str | None]], *, shape: tuple[int, int] | None = None,
                 name: str = "keymap") -> tuple[tuple[str | None, ...], ...]:
    """A keymap from config: rows of key names (``M``, ``GO``...) or stock legends (``A``, ``#``...).

    An empty string or None marks a position with no key. Raises
    :class:`ConfigError` (its message starting with ``name``, the config key)
    for an unknown name, a key given twice, or a shape that does not match
    ``shape`` (rows, columns). The one check of a keymap: the config uses it too.
    """
    parsed, seen = [], set()
    for row in rows:
        out = []
        for given in row:
            if given in (None, ""):
                out.append(None)
                continue
            key = _key_named(given, name)
            if key in seen:
                raise ConfigError(f"{name}: the key {key} is given twice")
            seen.add(key)
            out.append(key)
        parsed.append(tuple(out))
    if not parsed or len({len(r) for r in parsed}) != 1:
        raise ConfigError(f"{name}: give rows of equal length")
    if shape is not None and (len(parsed), len(parsed[0])) != shape:
        raise ConfigError(f"{name} is {len(parsed)}x{len(parsed[0])} but the keypad has {shape[0]} row and {shape[1]} column pins")
    return tuple(parsed)


def _key_named(given, name: str) -> str:
    """The key a keymap entry names (a key's name or a stock legend, in any case); a ConfigError otherwise."""
    word = str(given).strip().upper()
    key = word if word in KEYS else LEGEND_KEYS.get(word)
    if key is None:
        raise ConfigError(f"{name}: unknown key {given!r} (keys: {' '.join(KEYS)}; legends A B D * #)")
    return key


def _drive_low(pin) -> None:
    """Make ``pin`` an output driving low (lgpio claims an output low; other factories are told so)."""
    pin.function = "output"
    if pin.state:
        pin.state = False


@dataclass
class _KeyState:
    down: bool = False                 # what the core was told (or, if ignored, what it reads, debounced)
    down_since: float = 0.0            # when the press was confirmed: the stuck rule counts from it
    pressing_since: float | None = None    # while up: the first of the unbroken down reads so far
    down_reads: int = 0                # ... and how many scans they were
    releasing_since: float | None = None   # while down: the first of the unbroken up reads so far
    ignored: bool = False              # stuck, or down at start-up: silent until it reads up


def _check_timing(debounce: float, press_confirm: float, stuck_after: float, scan_interval: float) -> None:
    """A ConfigError unless a press and a release settle (in ``press_confirm``, ``debounce``) before a key
    counts as stuck, and the scans come apart."""
    if min(debounce, press_confirm) < 0 or stuck_after <= max(debounce, press_confirm) or scan_interval <= 0:
        raise ConfigError("keypad timing: need 0 <= debounce, press_confirm < stuck_after and scan_interval > 0")


class MatrixKeypad:
    """A matrix keypad on GPIO: rows driven low in turn, columns read with pull-ups.

    Wiring (BCM, defaults): rows GPIO5, 6, 13, 19 (header pins 29, 31, 33,
    35) to the keypad's row wires 1-4; columns GPIO12, 16, 20, 21 (pins 32,
    36, 38, 40) to its column wires 1-4. A stock keypad's 8-way ribbon is
    rows first, then columns, seen with the keys facing you.

    ``pin_factory`` is required (a gpiozero factory: ``LGPIOFactory()`` on a
    Pi 5, ``MockFactory()`` in tests); the global ``Device.pin_factory`` is
    never used. ``keymap`` is rows of key names (see :func:`parse_keymap`).
    ``clock`` gives the events' times. ``press_confirm`` and ``debounce``
    are the seconds a press and a release must read steadily before they
    count (module docstring: 2 ms on two scans, 20 ms). ``scan_once()`` does one scan and
    returns (and posts) the events; ``start(post)`` scans every
    ``scan_interval`` seconds on a background thread.

    Example::

        from gpiozero.pins.mock import MockFactory
        with MatrixKeypad(pin_factory=MockFactory()) as keypad:
            keypad.start(shell.post)
    """

    def __init__(self, *, pin_factory, rows: Sequence[int | str] = DEFAULT_ROWS,
                 columns: Sequence[int | str] = DEFAULT_COLUMNS,
                 keymap: Iterable[Iterable[str | None]] | None = None,
                 clock: Callable[[], float] = time.monotonic, debounce: float = 0.02,
                 press_confirm: float = PRESS_CONFIRM, stuck_after: float = 30.0, scan_interval: float = SCAN_INTERVAL,
                 on_stuck: Callable[[str], None] | None = None) -> None:
        if pin_factory is None:
            raise ConfigError("the keypad needs a gpiozero pin_factory (it never uses the global one)")
        _check_timing(debounce, press_confirm, stuck_after, scan_interval)
        self.keymap = parse_keymap(keymap if keymap is not None else DEFAULT_KEYMAP, shape=(len(rows), len(columns)))
        self.clock = clock
        self.debounce = debounce
        self.press_confirm = press_confirm
        self.stuck_after = stuck_after
        self.scan_interval = scan_interval
        self.on_stuck = on_stuck
        self.post: Callable[[Event], None] | None = None
        self._states = {key: _KeyState() for row in self.keymap for key in row if key is not None}
        self._first_scan = True
        self._worker: Supervised | None = None
        self.scan_errors = 0
        self._lock = threading.Lock()
        self._rows: list = []
        self._columns: list = []
        self._claim_pins(rows, columns, pin_factory)

    def _claim_pins(self, rows: Sequence[int | str], columns: Sequence[int | str], pin_factory) -> None:
        """The row pins as outputs driven low, the column pins as inputs pulled up; if one can't be had, the
        ones already claimed are let go."""
        from gpiozero import DigitalInputDevice, DigitalOutputDevice

        try:
            for pin in rows:
                self._rows.append(DigitalOutputDevice(pin, initial_value=False, pin_factory=pin_factory))
            for pin in columns:
                self._columns.append(DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except Exception:
            self._close_pins()
            raise

    # -- scanning ------------------------------------------------------------------------

    def read_matrix(self) -> set[str]:
        """The keys that read down right now (raw, not debounced)."""
        columns = [c for c, column in enumerate(self._columns) if column.is_active]  # every row is low between scans
        if not columns:
            return set()
        down = set()
        rows = [row.pin for row in self._rows]
        for pin in rows[1:]:
            pin.function = "input"                  # every row but the first floats ...
        try:
            for r, pin in enumerate(rows):
                if r:
                    rows[r - 1].function = "input"
                    _drive_low(pin)                 # ... and each is driven low alone in turn
                down |= self._down_in_row(r, columns)
        finally:
            for pin in rows:
                if pin.function != "output":
                    _drive_low(pin)                 # between scans: all low
        return down

    def _down_in_row(self, r: int, columns: list[int]) -> set[str]:
        """The keys of row ``r`` (driven low alone) that read down, among the ``columns`` active at all."""
        keys = self.keymap[r]
        return {keys[c] for c in columns if self._columns[c].is_active and keys[c] is not None}

    def scan_once(self) -> list[Event]:
        """Scan the matrix once; return the debounced KeyDown/KeyUp events (also posted if a sink is set)."""
        with self._lock:
            raw = self.read_matrix()
            now = self.clock()
            events: list[Event] = []
            for key, state in self._states.items():
                event = self._update(key, state, key in raw, now)
                if event is not None:
                    events.append(event)
            self._first_scan = False
        if self.post is not None:
            for event in events:
                self.post(event)
        return events

    def _update(self, key: str, state: _KeyState, raw: bool, now: float) -> Event | None:
        if self._first_scan and raw:
            state.down, state.ignored, state.down_since = True, True, now
            log.warning("key %s is down at start-up: ignored until released", key)
            return None
        if state.down:
            return self._while_down(key, state, raw, now)
        if not raw:
            state.pressing_since, state.down_reads = None, 0
            return None
        if state.pressing_since is None:
            state.pressing_since = now
        state.down_reads += 1
        if state.down_reads < PRESS_READS or now - state.pressing_since < self.press_confirm - _SLACK:
            return None
        state.down, state.down_since, state.pressing_since, state.down_reads = True, now, None, 0
        return KeyDown(key, now)

    def _while_down(self, key: str, state: _KeyState, raw: bool, now: float) -> Event | None:
        """A key that counts as down: released only after ``debounce`` of unbroken up reads; the stuck rule."""
        if raw:
            state.releasing_since = None           # a bounce: the release starts again
            if not state.ignored and now - state.down_since > self.stuck_after:
                state.ignored = True
                log.warning("key %s stuck down for %.0f s: ignored until released", key, now - state.down_since)
                if self.on_stuck is not None:
                    self.on_stuck(key)
                return KeyUp(key, now)
            return None
        if state.releasing_since is None:
            state.releasing_since = now
        if now - state.releasing_since < self.debounce - _SLACK:
            return None
        state.down, state.releasing_since = False, None
        if state.ignored:
            state.ignored = False
            log.info("key %s released", key)
            return None
        return KeyUp(key, now)

    @property
    def stuck(self) -> set[str]:
        """Keys being ignored (stuck, or down since start-up) until they read up."""
        return {key for key, state in self._states.items() if state.ignored}

    # -- scanning in the background ---------------------------------------------------

    def start(self, post: Callable[[Event], None]) -> None:
        """Scan on a supervised background thread, posting events to ``post``.

        A scan that raises (a GPIO error) is logged once per run of failures
        and counted in ``scan_errors``; the scanning goes on. If the thread
        itself fails (``post`` raised, say), it is started again.
        """
        self.post = post
        if self._worker is None:
            self._worker = Supervised("keypad-scan", self._run)
            self._worker.start()

    def _run(self, stop: threading.Event) -> None:
        failing = False
        while not stop.is_set():
            try:
                self.scan_once()
            except Exception as exc:  # a GPIO error must not kill the scanner, nor pass unseen
                self.scan_errors += 1
                if not failing:
                    log.error("keypad scan failed (%s); still scanning", exc, exc_info=exc)
                failing = True
            else:
                if failing:
                    log.info("keypad scans again")
                failing = False
            stop.wait(self.scan_interval)

    @property
    def restarts(self) -> int:
        """How often the scanning thread failed and was started again."""
        return self._worker.restarts if self._worker is not None else 0

    def close(self) -> None:
        """Stop scanning and release the pins."""
        if self._worker is not None:
            self._worker.stop(timeout=1.0)
            self._worker = None
        with self._lock:
            self._close_pins()

    def _close_pins(self) -> None:
        for device in self._rows + self._columns:
            device.close()
        self._rows, self._columns = [], []

    def __enter__(self) -> MatrixKeypad:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
