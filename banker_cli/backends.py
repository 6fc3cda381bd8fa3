"""One string picks the backend a keypad script (or the unit) runs on, from one table kept here, at the edge.

Like gpiozero's ``default_factories``: each name maps to a ``"module:factory"``
string, imported only when that backend is chosen, so a backend's libraries
(pygame for the window, pyserial, gpiozero) are loaded only for it.

=========  ==========================================================  =======================================
name       what carries the events                                      factory
=========  ==========================================================  =======================================
core       script events straight into the one shell                    runtime.script_shell:CoreBackend
hw-sim     the real drivers on simulated chips (keypad, readers, OLED)   firmware_sim.hw_sim_backend:HwSimBackend
serial     a unit at the other end of a serial test port (``URL``)      firmware_sim.serial_backend:serial_backend
window     the desktop simulator's window                               firmware_sim.window_backend:open_window_backend
=========  ==========================================================  =======================================

``banker run`` and ``banker doctor`` pick the unit's hardware from
:data:`HARDWARE` the same way: ``pi`` (the real buses) or ``hw-sim``.

Every local backend is the one script driver
(:class:`banker.script.driver.ScriptDriver`) with its own hands
(:class:`banker.script.hands.Hands`); only ``serial``'s unit is remote.
``spy:NAME`` (like pyserial's ``spy://``) wraps NAME's shell in a
:class:`runtime.spy.SpyShell` that logs every event, record and effect to
stderr (or a given stream); the shell itself is not touched. ``serial:URL`` names the port in the string.

``pin`` is the banker's PIN for a script's ``enrol`` and ``enrol-deed``
(``banker script --pin``): a local backend hands it to the ledger's act as a
grant, ``serial`` sends it in each such line's ``pin=`` field
(``docs/serial-protocol.md``); the unit's write path decides whether it is needed.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, TextIO
from collections.abc import Callable

from banker.errors import ConfigError

#: Every backend a keypad script can run on: name -> "module:factory", imported only when chosen.
SCRIPT_FACTORIES = {
    "core": "runtime.script_shell:CoreBackend",
    "hw-sim": "firmware_sim.hw_sim_backend:HwSimBackend",
    "serial": "firmware_sim.serial_backend:serial_backend",
    "window": "firmware_sim.window_backend:open_window_backend",
}
#: Every backend ``banker run`` and ``banker doctor`` can drive the unit with: name -> "module:factory(config)".
HARDWARE = {
    "pi": "runtime.device:pi_hardware",
    "hw-sim": "firmware_sim.hw_sim:realtime_hardware",
}
SCRIPT_BACKENDS = tuple(SCRIPT_FACTORIES)
RUN_BACKENDS = tuple(HARDWARE)


def load(spec: str) -> Callable[..., Any]:
    """The factory a ``"module:factory"`` string names (the module imported now)."""
    module, _, name = spec.partition(":")
    return getattr(import_module(module), name)


def parse(spec: str) -> tuple[str, str | None, bool]:
    """(name, URL or None, spy?) of a backend string such as ``core``, ``spy:hw-sim`` or ``serial:loop://``."""
    spy = spec.startswith("spy:")
    rest = spec[len("spy:"):] if spy else spec
    name, _, url = rest.partition(":") if rest.startswith("serial:") else (rest, "", "")
    if name not in SCRIPT_BACKENDS + RUN_BACKENDS:
        raise ConfigError(f"no backend {spec!r} (known: {', '.join(dict.fromkeys(SCRIPT_BACKENDS + RUN_BACKENDS))}, "
                          "each may be spy:NAME)")
    return name, url or None, spy


def script_backend(spec: str, ledger, *, config=None, url: str | None = None, spy_stream: TextIO | None = None,
                   pin: str | None = None, language: str | None = None) -> Any:
    """The keypad-script backend named by ``spec`` over ``ledger`` (serial: the unit at ``url`` keeps its own).

    ``pin``: the banker's PIN for the script's admin steps (None: none given). ``language``: the config's
    ``[unit] language`` (``core``, ``window``; ``hw-sim`` reads its ``config``'s), so the screen a script's
    ``expect screen`` reads is the one the unit draws.
    """
    name, named_url, spy = parse(spec)
    if name not in SCRIPT_FACTORIES:
        raise ConfigError(f"backend {name!r} runs the unit itself: use 'banker run --backend {name}'")
    factory = load(SCRIPT_FACTORIES[name])
    if name == "serial":
        if spy:
            raise ConfigError("spy: the serial backend's shell is on the other unit")
        port = url or named_url
        if port is None:
            raise ConfigError("the serial backend needs a port URL (serial:URL, or --port URL)")
        return factory(port, pin=pin)
    options: dict[str, Any] = {"pin": pin}
    if spy:
        from runtime.spy import SpyShell, spy_to

        write = spy_to(spy_stream)
        options["wrap"] = lambda shell: SpyShell(shell, write)
    if name == "hw-sim":
        return factory(ledger, config, **options)
    return factory(ledger, language=language, **options)


def hardware(name: str, config) -> Any:
    """The unit's hardware for ``banker run``/``doctor``: ``pi`` or ``hw-sim`` (a context manager)."""
    if name not in HARDWARE:
        raise ConfigError(f"no hardware {name!r} (known: {', '.join(HARDWARE)})")
    return load(HARDWARE[name])(config)
