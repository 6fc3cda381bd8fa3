"""A simulated 4x4 membrane keypad on gpiozero's MockFactory: keys a test presses short rows to columns.

:class:`KeypadMatrix` solders itself to the row and column pins of a
``MockFactory`` before the driver claims them. Its row pins are the
factory's pin class (``MockPin`` or ``MockPWMPin``) with a mixin that tells
the matrix when the driver drives them; the matrix then pulls each column
low (``drive_low()``) while a pressed key joins it to a row driven low, and
lets it go back up to its pull-up (``drive_high()``) otherwise, as the
copper does. Like a real
membrane it has no diodes, so three keys at the corners of a rectangle
ghost the fourth.

Example::

    factory = MockFactory()
    matrix = KeypadMatrix(factory)
    clock = ManualClock()
    keypad = MatrixKeypad(pin_factory=factory, clock=clock)
    matrix.press("5"); clock.advance(0.03); keypad.scan_once(); keypad.scan_once()
    # -> [KeyDown("5", ...)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gpiozero.pins.mock import MockFactory

from drivers.keypad import DEFAULT_COLUMNS, DEFAULT_KEYMAP, DEFAULT_ROWS, parse_keymap


class ManualClock:
    """A clock that moves only when told: ``clock()`` reads it, ``advance(s)`` moves it."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t


class _RowMixin:
    """Mixed into the factory's pin class for row pins: every change of level or function re-settles the columns."""

    def __init__(self, factory, info, matrix: KeypadMatrix | None = None) -> None:
        super().__init__(factory, info)
        self.matrix = matrix

    def _change_state(self, value):
        changed = super()._change_state(value)
        if getattr(self, "matrix", None) is not None:
            self.matrix.settle()
        return changed

    def _set_function(self, value):
        super()._set_function(value)
        if getattr(self, "matrix", None) is not None:
            self.matrix.settle()


def _row_pin_class(base: type) -> type:
    """A row pin class over ``base`` (the factory's MockPin or MockPWMPin), so the factory's pin checks pass."""
    return type(f"KeypadRow{base.__name__}", (_RowMixin, base), {})


class KeypadMatrix:
    """The keys and copper of a keypad whose rows and columns are on ``factory``'s pins.

    ``press(key)`` / ``release(key)`` act as a finger; ``pressed`` is what is
    held now. Pins and keymap default to the driver's defaults.
    """

    def __init__(self, factory: MockFactory, *, rows: Sequence[int | str] = DEFAULT_ROWS,
                 columns: Sequence[int | str] = DEFAULT_COLUMNS,
                 keymap: Iterable[Iterable[str | None]] | None = None) -> None:
        self.keymap = parse_keymap(keymap if keymap is not None else DEFAULT_KEYMAP, shape=(len(rows), len(columns)))
        self.position = {key: (r, c) for r, row in enumerate(self.keymap) for c, key in enumerate(row) if key}
        self.pressed: set[str] = set()
        self.shorts = 0
        row_class = _row_pin_class(factory.pin_class)
        self.rows = [factory.pin(pin, pin_class=row_class, matrix=self) for pin in rows]
        for pin in self.rows:
            pin.matrix = self          # the factory may have made the pin earlier
        self.columns = [factory.pin(pin) for pin in columns]

    def press(self, *keys: str) -> None:
        for key in keys:
            self._check(key)
            self.pressed.add(key)
        self.settle()

    def release(self, *keys: str) -> None:
        for key in keys or tuple(self.pressed):
            self.pressed.discard(key)
        self.settle()

    def _check(self, key: str) -> None:
        if key not in self.position:
            raise ValueError(f"no key {key!r} on this keypad")

    def _row_level(self, r: int) -> bool | None:
        """The level row ``r`` drives (True high, False low), or None while it floats."""
        pin = self.rows[r]
        return bool(pin.state) if pin.function == "output" else None

    def _nets(self) -> dict[tuple[str, int], tuple[str, int]]:
        """The net each row ``("r", r)`` and column ``("c", c)`` is in, named by one of its members: pressed keys
        join their row and column."""
        parent = {("r", r): ("r", r) for r in range(len(self.rows))}
        parent.update({("c", c): ("c", c) for c in range(len(self.columns))})

        def find(node):
            while parent[node] != node:
                node = parent[node]
            return node

        for key in self.pressed:
            r, c = self.position[key]
            parent[find(("r", r))] = find(("c", c))
        return {node: find(node) for node in parent}

    def settle(self) -> None:
        """Set every column's level from the pressed keys and the driven rows (with ghosting).

        Pressed keys join rows and columns into nets. A column reads low when
        its net holds a row driven low, else its pull-up holds it high. A net
        holding one row driven high and another driven low is a short: it is
        counted in :attr:`shorts` (a driver must never do that).
        """
        net = self._nets()
        levels: dict[tuple, set[bool]] = {}
        for r in range(len(self.rows)):
            level = self._row_level(r)
            if level is not None:
                levels.setdefault(net[("r", r)], set()).add(level)
        self.shorts += sum(1 for driven in levels.values() if len(driven) == 2)
        for c, pin in enumerate(self.columns):
            if pin.function != "input":
                continue
            if False in levels.get(net[("c", c)], ()):
                pin.drive_low()
            elif pin.pull == "up":
                pin.drive_high()
