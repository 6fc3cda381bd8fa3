"""One string picks the backend a keypad script (or the unit) runs on, from one registry, pyserial-style.

=========  ==========================================================  ============================
name       what carries the events                                      where
=========  ==========================================================  ============================
core       script events straight into the one shell                    firmware_sim.core_backend
hw-sim     the real drivers on simulated chips (keypad, readers, OLED)   firmware_sim.hw_sim
serial     a unit at the other end of a serial test port (``URL``)      firmware_sim.serial_backend
window     the desktop simulator's window                               firmware_sim.window_backend
pi         the real buses of a Raspberry Pi (``banker run`` only)       runtime.device.PiHardware
=========  ==========================================================  ============================

``spy:NAME`` (like pyserial's ``spy://``) runs NAME and logs every event,
record and effect that passes its shell to stderr (or a given stream),
without touching any other code. ``serial:URL`` names the port in the string.

``pin`` is the banker's PIN for a script's ``enrol`` and ``enrol-deed``
(``banker script --pin``): every backend checks it through
:meth:`runtime.ledger.Ledger.authorise`; ``serial`` sends it to the unit in
each such line's ``pin=`` field (``docs/serial-protocol.md``).
"""

from __future__ import annotations

import sys
from typing import Any, Callable, TextIO

from banker.errors import ConfigError

#: Every backend a keypad script can run on.
SCRIPT_BACKENDS = ("core", "hw-sim", "serial", "window")
#: Every backend ``banker run`` can drive the unit with.
RUN_BACKENDS = ("pi", "hw-sim")


def parse(spec: str) -> tuple[str, str | None, bool]:
    """(name, URL or None, spy?) of a backend string such as ``core``, ``spy:hw-sim`` or ``serial:loop://``."""
    spy = spec.startswith("spy:")
    rest = spec[len("spy:"):] if spy else spec
    name, _, url = rest.partition(":") if rest.startswith("serial:") else (rest, "", "")
    if name not in SCRIPT_BACKENDS + RUN_BACKENDS:
        raise ConfigError(f"no backend {spec!r} (known: {', '.join(dict.fromkeys(SCRIPT_BACKENDS + RUN_BACKENDS))}, "
                          "each may be spy:NAME)")
    return name, url or None, spy


def spy_to(stream: TextIO | None = None) -> Callable[[str, object], None]:
    """A spy that writes ``kind value`` lines, one per event, record and effect."""
    def spy(kind: str, value: object) -> None:
        print(f"spy {kind:<6} {value!r}", file=stream or sys.stderr, flush=True)
    return spy


def script_backend(spec: str, ledger, *, config=None, url: str | None = None, spy_stream: TextIO | None = None,
                   pin: str | None = None) -> Any:
    """The keypad-script backend named by ``spec`` over ``ledger`` (serial: the unit at ``url`` keeps its own).

    ``pin``: the banker's PIN for the script's admin steps (None: none given).
    """
    name, named_url, spy = parse(spec)
    if name == "core":
        from firmware_sim.core_backend import CoreBackend

        backend = CoreBackend(ledger, pin=pin)
    elif name == "hw-sim":
        from firmware_sim.hw_sim import HwSimBackend

        backend = HwSimBackend(ledger, config, pin=pin)
    elif name == "serial":
        from firmware_sim.serial_backend import SerialBackend

        port = url or named_url
        if port is None:
            raise ConfigError("the serial backend needs a port URL (serial:URL, or --port URL)")
        backend = SerialBackend(port, pin=pin)
    elif name == "window":
        from firmware_sim.window_backend import open_window_backend

        backend = open_window_backend(ledger, pin=pin)
    else:
        raise ConfigError(f"backend {name!r} runs the unit itself: use 'banker run --backend {name}'")
    if spy:
        shell = getattr(backend, "shell", None)
        if shell is None:
            raise ConfigError(f"spy: the {name} backend's shell is on the other unit")
        shell.spy = spy_to(spy_stream)
    return backend
