"""The MFRC522's RST (NRSTPD) line as a gpiozero output that readers wired to one pin share.

gpiozero refuses a second device on a pin, so readers wired to one RST line
share one ``DigitalOutputDevice``, which is closed when the last of them is.
"""

from __future__ import annotations

import threading
from typing import Any

from drivers.card_slots import ReaderError, ReaderLibraryMissing


class _SharedOutput:
    def __init__(self, output: Any) -> None:
        self.output, self.users = output, 0


#: (id of the pin factory, BCM pin) -> the one gpiozero output on that RST line and how many readers hold it
#: (the output keeps its factory alive, so the id is not reused while the entry exists).
#: gpiozero refuses a second device on a pin, so readers wired to one RST line share one output,
#: which is closed when the last of them is.
_reset_pin_users: dict[tuple[Any, int], _SharedOutput] = {}
_reset_lock = threading.Lock()


class SharedReset:
    """One reader's hold on an RST output that other readers may share; ``close()`` lets go of it once."""

    def __init__(self, key: tuple[Any, int]) -> None:
        self._key: tuple[Any, int] | None = key

    @property
    def pin(self) -> Any:
        return _reset_pin_users[self._key].output.pin if self._key is not None else None

    def on(self) -> None:
        self._output().on()

    def off(self) -> None:
        self._output().off()

    def _output(self) -> Any:
        if self._key is None:
            raise ReaderError("this reset line was let go of")
        return _reset_pin_users[self._key].output

    def close(self) -> None:
        with _reset_lock:
            key, self._key = self._key, None
            if key is None:
                return
            shared = _reset_pin_users[key]
            shared.users -= 1
            if shared.users:
                return
            del _reset_pin_users[key]
        shared.output.close()


def reset_output(reset_pin: int, *, pin_factory: Any = None) -> SharedReset:
    """The RST line on BCM ``reset_pin`` as a gpiozero output (driven high at once), shared per pin.

    Example: ``reset_output(25, pin_factory=MockFactory()).on()``.
    """
    key = (id(pin_factory), reset_pin)
    with _reset_lock:
        if key not in _reset_pin_users:
            from gpiozero import DigitalOutputDevice
            from gpiozero.exc import BadPinFactory, GPIOZeroError

            try:
                output = DigitalOutputDevice(reset_pin, initial_value=True, pin_factory=pin_factory)
            except BadPinFactory as exc:
                raise ReaderLibraryMissing(f"no GPIO library can drive the MFRC522's RST on GPIO{reset_pin} "
                                           f"({exc}); install lgpio on a Pi: docs/install-pi.md") from exc
            except GPIOZeroError as exc:
                raise ReaderError(f"cannot drive the MFRC522's RST on GPIO{reset_pin}: {exc}") from exc
            _reset_pin_users[key] = _SharedOutput(output)
        _reset_pin_users[key].users += 1
    return SharedReset(key)
