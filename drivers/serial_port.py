"""The serial test port: keypad-script lines in, JSON answers out, so a test rig can drive a real unit.

Off unless configured. It listens on a pyserial URL (``/dev/ttyGS0`` for the
Pi's USB gadget serial, ``socket://host:port``, ``loop://``...).

Protocol ``banker-serial/1`` (also in ``docs/serial-protocol.md``):

- Lines of UTF-8 text, each ending in ``\\n`` (a ``\\r`` before it is
  dropped), at most 256 bytes. Blank lines and ``#`` comments get no answer;
  every other line gets exactly one answer line, a JSON object, in order.
- Commands are keypad-script steps: ``enrol NAME UID``, ``insert left|right
  CARD`` (an enrolled name, else a UID in hex), ``stack left|right CARD``
  (another card on a reader that holds one), ``remove left|right``,
  ``press KEY [KEY ...]``, ``hold KEY [SECONDS]``, ``wait SECONDS``,
  ``tap left|right CARD``, ``enrol-deed SLUG UID``
  (at most 600 s). Done: ``{"ok": true, "screen": [lines]}``, sent once the
  step has been carried out (after a ``wait``, when the time has passed).
- The banker's acts (``enrol`` of a new card, ``enrol-deed``) carry the
  banker's PIN as a last word ``pin=PIN`` when the unit has one set; it is
  checked by the ledger's write path (a wrong one is
  journalled, so the lockout counts with the keypad's and the CLI's), never
  sent back and never logged. Refused: ``{"ok": false, "error": "...",
  "needs_pin": true, "line": N}``.
- Queries end in ``?``: ``hello?`` -> ``{"ok": true, "protocol":
  "banker-serial", "version": 1}``; ``screen?`` -> ``{"ok": true, "screen":
  [...]}``; ``balances?`` -> ``{"ok": true, "balances": {NAME: dollars}}``;
  ``balance? NAME`` -> ``{"ok": true, "name": NAME, "balance": dollars or
  null}``; ``status?`` -> screen, balances, ``volume`` (0-3) and ``game``;
  ``owner? SLUG`` -> ``{"owner": NAME or "bank"}``; ``houses? SLUG`` ->
  ``{"houses": 0-5}`` (5 a hotel); ``mortgaged? SLUG`` -> ``{"mortgaged":
  bool}``; ``bank-buildings?`` -> ``{"houses": N, "hotels": N}``;
  ``worth? NAME`` -> ``{"worth": dollars or null}``.
- A name with spaces or quotes is written in double quotes, ``\\"`` and
  ``\\\\`` inside standing for ``"`` and ``\\`` (:mod:`banker.text.quoting`):
  ``balance? "Player 1"``; a one-argument query also takes the rest of an
  unquoted line as the name (``balance? Player 1``).
- Anything else (a malformed step, ``expect`` which the client checks, a
  line too long, bytes that are not UTF-8, a refused enrolment) ->
  ``{"ok": false, "error": "...", "line": N}``, N counting the lines
  answered; the port carries on.

Framing (:class:`LineFramer`) and the commands (:class:`PortSession`) know
nothing of I/O; :class:`SerialTestPort` joins them to a pyserial port. The
device side runs the commands on a *target*: the script driver
(``runtime.script_shell.shell_target`` on the live unit,
``firmware_sim.serial_backend.CoreTarget`` in tests); the client side is
``firmware_sim.serial_backend.SerialBackend``. The port is polled from the
shell's one run loop (``Shell.run(stop, poll=(port.poll,))``).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any, Protocol

from banker.fold.authority import NotAuthorised
from banker.errors import BankerError, ScriptError
from banker.text.quoting import quote, words as split_words
from banker.script.syntax import ACTIONS, Enrol, EnrolDeed, Hold, Wait, parse_line
from banker.script.run import Backend, perform

from .errors import DriverLibraryMissing

log = logging.getLogger("banker.serial")

PROTOCOL, VERSION = "banker-serial", 1
MAX_LINE = 256
MAX_SECONDS = 600.0
#: The field that carries the banker's PIN, as the last word of an admin line: ``enrol Eve 0E0E pin=2468``.
PIN_FIELD = "pin="
#: The steps that are the banker's acts, and so may carry :data:`PIN_FIELD`.
ADMIN_VERBS = ("enrol", "enrol-deed")
_PIN_WORD = re.compile(r"(?<!\S)" + re.escape(PIN_FIELD) + r"\S*", re.IGNORECASE)


def _is_pin_field(word: str) -> bool:
    return word[:len(PIN_FIELD)].lower() == PIN_FIELD


def split_pin(line: str, number: int = 0) -> tuple[str, str | None]:
    """``line`` without its ``pin=PIN`` field, and the PIN (None: the line gave none).

    :class:`ScriptError` (which never quotes the PIN) for a field anywhere
    but once at the end of an ``enrol`` or ``enrol-deed`` line.

    >>> split_pin("enrol Eve 0E0E pin=2468")
    ('enrol Eve 0E0E', '2468')
    >>> split_pin("press 5 M")
    ('press 5 M', None)
    """
    words = split_words(line, number)
    fields = [w for w in words if _is_pin_field(w)]
    if not fields:
        return line, None
    rest = [w for w in words if not _is_pin_field(w)]
    if len(fields) > 1 or not _is_pin_field(words[-1]) or not rest or rest[0].lower() not in ADMIN_VERBS:
        raise ScriptError(number, f"{PIN_FIELD}PIN goes once, as the last word of an enrol or enrol-deed line")
    return " ".join(map(quote, rest)), fields[0][len(PIN_FIELD):]


def redact(line: str) -> str:
    """``line`` with every ``pin=`` field's PIN starred out (for logs and error messages).

    >>> redact("enrol Eve 0E0E pin=2468")
    'enrol Eve 0E0E pin=****'
    """
    return _PIN_WORD.sub(PIN_FIELD + "****", line)


class FrameError(str):
    """A framing problem where a line should be (its text is the message)."""


class LineFramer:
    """Splits a byte stream into lines of at most ``max_line`` bytes; bad input becomes a :class:`FrameError`."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buffer = bytearray()
        self._discarding = False

    def feed(self, data: bytes) -> list[str]:
        """The complete lines (str) and framing errors (FrameError) in ``data`` plus what was buffered."""
        out: list[str] = []
        self._buffer += data
        while True:
            end = self._buffer.find(b"\n")
            if end < 0:
                if len(self._buffer) > self.max_line:
                    if not self._discarding:
                        out.append(FrameError(f"line too long (at most {self.max_line} bytes)"))
                    self._discarding = True
                    self._buffer.clear()
                return out
            raw = bytes(self._buffer[:end])
            del self._buffer[:end + 1]
            if self._discarding:
                self._discarding = False
                continue
            out.append(self._decode(raw))

    def _decode(self, raw: bytes) -> str:
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        if len(raw) > self.max_line:
            return FrameError(f"line too long (at most {self.max_line} bytes)")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return FrameError("not UTF-8 text")
        if any(not ch.isprintable() and ch != "\t" for ch in text):
            return FrameError("control character in line")
        return text


class Target(Backend, Protocol):
    """What the device side drives: a keypad-script backend that also reports balances and status."""

    def balances(self) -> dict[str, int]: ...
    def status(self) -> dict[str, Any]: ...
    # the banker's acts, with the PIN the line carried (None: none)
    def enrol(self, name: str, uid: str, pin: str | None = None) -> None: ...
    def enrol_deed(self, slug: str, uid: str, pin: str | None = None) -> None: ...


#: The queries that take one argument: unquoted, the rest of the line is it (``balance? Player 1``).
ONE_ARGUMENT = ("balance?", "worth?", "owner?", "houses?", "mortgaged?")


def _rest_as_one(line: str, words: list[str], verb: str) -> list[str]:
    """A one-argument query's argument: the rest of the (unquoted) line after its verb, spaces and all."""
    if verb not in ONE_ARGUMENT or len(words) < 3:
        return words[1:]
    return [line.split("#", 1)[0].strip()[len(words[0]):].strip()]


class PortSession:
    """The device side of the protocol over ``target``: :meth:`answer` one line, get the JSON answer or None."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self.count = 0

    def answer(self, line: str) -> str | None:
        if not isinstance(line, FrameError) and not line.split("#", 1)[0].strip():
            return None
        self.count += 1
        try:
            reply = self._handle(line)
        except NotAuthorised as exc:  # no PIN, a wrong one (journalled), or PIN entry locked
            reply = {"ok": False, "error": str(exc), "needs_pin": True}
        except (BankerError, ValueError) as exc:
            reply = {"ok": False, "error": str(exc)}
        except Exception as exc:  # a bug in a target must not stop the port
            log.exception("serial test port: %r failed", redact(line))
            reply = {"ok": False, "error": f"internal error: {type(exc).__name__}: {exc}"}
        if not reply["ok"]:
            reply["line"] = self.count
        return json.dumps(reply, separators=(",", ":"))

    def _handle(self, line: str) -> dict[str, Any]:
        if isinstance(line, FrameError):
            return {"ok": False, "error": str(line)}
        line, pin = split_pin(line, self.count)
        words = split_words(line, self.count)
        verb = words[0].lower()
        if verb.endswith("?"):
            return self._query(verb, words[1:] if '"' in line else _rest_as_one(line, words, verb))
        step = parse_line(line, self.count)
        t = self.target
        if not isinstance(step, ACTIONS):
            raise ScriptError(self.count, "expect is checked by the client: ask screen? or balance? NAME")
        if isinstance(step, (Hold, Wait)) and step.seconds > MAX_SECONDS:
            raise ScriptError(self.count, f"at most {MAX_SECONDS:.0f} seconds at a time")
        try:
            if isinstance(step, Enrol):
                t.enrol(step.name, step.uid, pin=pin)
            elif isinstance(step, EnrolDeed):
                t.enrol_deed(step.slug, step.uid, pin=pin)
            else:
                perform(step, t)
        except ScriptError as exc:
            raise exc.at(self.count) from None
        return {"ok": True, "screen": t.screen_lines()}

    def _query(self, verb: str, args: list[str]) -> dict[str, Any]:
        if verb not in _QUERIES:
            raise ScriptError(self.count, f"unknown query {verb!r} (queries: {' '.join(_QUERIES)})")
        arity, answer = _QUERIES[verb]
        if len(args) != arity:
            raise ScriptError(self.count, f"usage: {verb}" + (" ARGUMENT" if arity else ""))
        return {"ok": True, **answer(self.target, *args)}


def _deed_query(verb: str):
    """The answer to ``owner?``, ``houses?`` or ``mortgaged?`` DEED: the deed and the target's word on it."""
    return lambda t, deed: {"deed": deed, verb[:-1]: getattr(t, verb[:-1])(deed)}


def _bank_buildings(t) -> dict[str, Any]:
    houses, hotels = t.bank_buildings()
    return {"houses": houses, "hotels": hotels}


#: The protocol's queries, in the order the error for an unknown one lists them: verb -> (how many
#: arguments, the answer's fields from the target).
_QUERIES: dict[str, tuple[int, Any]] = {
    "hello?": (0, lambda t: {"protocol": PROTOCOL, "version": VERSION}),
    "screen?": (0, lambda t: {"screen": t.screen_lines()}),
    "balances?": (0, lambda t: {"balances": t.balances()}),
    "status?": (0, lambda t: t.status()),
    "balance?": (1, lambda t, name: {"name": name, "balance": t.balance(name)}),
    **{verb: (1, _deed_query(verb)) for verb in ("owner?", "houses?", "mortgaged?")},
    "bank-buildings?": (0, _bank_buildings),
    "worth?": (1, lambda t, name: {"name": name, "worth": t.worth(name)}),
}


#: Bytes one read takes at most (what is left waits for the next read; lines stay bounded by the framer).
READ_CHUNK = 4 * MAX_LINE


def read_waiting(port) -> bytes:
    """Every byte waiting on ``port`` now (at most :data:`READ_CHUNK`), in one read that does not wait.

    pyserial's ``in_waiting`` counts the bytes on a UART and ``loop://``, but
    on ``socket://`` it is only 1 (the socket is readable, not how much), so
    a port opened with no timeout (``timeout=0``) is asked for a whole chunk
    and gives what has come; one with a timeout only what it counted.
    """
    waiting = port.in_waiting
    if not waiting:
        return b""
    return port.read(READ_CHUNK if getattr(port, "timeout", None) == 0 else min(waiting, READ_CHUNK))


def open_serial(url: str, *, baudrate: int = 115200, timeout: float = 0.05, serial_for_url=None):
    """A pyserial port for ``url`` (``serial.serial_for_url``, imported only now)."""
    if serial_for_url is None:
        try:
            from serial import serial_for_url
        except ImportError as exc:  # pragma: no cover - pyserial is a declared dependency
            raise DriverLibraryMissing("the serial test port needs pyserial: pip install pyserial") from exc
    return serial_for_url(url, baudrate=baudrate, timeout=timeout)


class SerialTestPort:
    """The device side of the serial test port: reads lines from ``url`` and answers them from ``target``.

    Wiring on a Pi Zero/4/5: enable the USB gadget serial (``dtoverlay=dwc2``
    and ``modules-load=dwc2,g_serial``), then ``url="/dev/ttyGS0"``; the host
    sees ``/dev/ttyACM0``. Commands run in the thread that calls
    :meth:`poll`: the thread that owns the unit, in its one run loop.
    A port error is logged and :attr:`failed` set; it never raises into the unit.

    Example::

        with SerialTestPort("/dev/ttyGS0", shell_target(shell)) as port:
            shell.run(stop, poll=(port.poll,))
    """

    def __init__(self, url: str, target: Target, *, baudrate: int = 115200, max_line: int = MAX_LINE,
                 serial_for_url=None, port=None) -> None:
        self.url = url
        self.port = port if port is not None else open_serial(url, baudrate=baudrate, timeout=0,
                                                              serial_for_url=serial_for_url)  # polled: never waits
        self.framer = LineFramer(max_line)
        self.session = PortSession(target)
        self.failed = False
        self.errors = 0

    def poll(self) -> int:
        """Answer every complete line received so far, without waiting; return how many were answered.

        Never raises: a port error (or any other) is logged once and ``failed`` set.
        """
        try:
            data = read_waiting(self.port)
            return self._handle(data) if data else 0
        except Exception as exc:  # SerialException is an IOError; anything else must not stop the unit either
            self._report(exc)
            return 0

    def _handle(self, data: bytes) -> int:
        answered = 0
        for line in self.framer.feed(data):
            reply = self.session.answer(line)
            if reply is not None:
                self.port.write(reply.encode() + b"\n")
                answered += 1
        if answered:
            self.port.flush()
        self.failed = False
        return answered

    def _report(self, exc: BaseException) -> None:
        if not self.failed:
            log.warning("serial test port %s: %s", self.url, exc, exc_info=not isinstance(exc, OSError))
        self.errors += 1
        self.failed = True

    def close(self) -> None:
        self.port.close()

    def __enter__(self) -> SerialTestPort:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
