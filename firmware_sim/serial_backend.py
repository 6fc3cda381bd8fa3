"""The client side of the serial test port (a keypad-script backend that drives a device), a simulated device, and a cable.

- :class:`SerialBackend` runs ``banker script FILE --port URL``: each step
  becomes one protocol line (``drivers.serial_port``), each expectation a
  ``screen?`` or ``balance?`` query; the banker's acts carry its ``pin``.
- :class:`CoreTarget` is a device for it to talk to: the script driver
  over the core unit on simulated time (``runtime.script_shell.CoreBackend``).
- :class:`NullModem` is a cable between two pyserial ``socket://`` URLs on
  127.0.0.1, so both ends run in one process with pyserial's own transport.

Example::

    with NullModem() as cable, SerialBackend(cable.client_url) as device:
        device.press("5")
"""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

from banker.fold.authority import NotAuthorised, is_pin
from banker.text.quoting import quote
from drivers.errors import SerialProtocolError, SerialTimeout
from drivers.serial_port import ADMIN_VERBS, MAX_LINE, PIN_FIELD, PROTOCOL, VERSION, open_serial, read_waiting
from runtime.script_shell import CoreBackend

ANSWER_MARGIN = 5.0
#: Seconds the client pauses when nothing has come yet (its port never waits: it reads what is there).
READ_PAUSE = 0.001
#: Bytes an answer may take before its line end (a unit that never ends its line is not the protocol).
MAX_ANSWER = 1 << 20


class SerialBackend:
    """A keypad-script backend for a unit at the other end of a serial test port (``url`` for pyserial).

    Raises :class:`SerialTimeout` when the device does not answer within
    ``timeout`` seconds (plus the time a ``wait``/``hold`` takes), and
    :class:`SerialProtocolError` when it refuses a step or answers
    something that is not the protocol. Opening checks ``hello?``.

    ``pin``: the banker's PIN, sent as the ``pin=`` field of each ``enrol``
    and ``enrol-deed`` line (never in a message); a unit that refuses the
    act for want of it (none, wrong, PIN entry locked) raises
    :class:`~banker.fold.authority.NotAuthorised`.
    """

    def __init__(self, url: str, *, timeout: float = ANSWER_MARGIN, baudrate: int = 115200,
                 serial_for_url=None, port=None, pin: str | None = None) -> None:
        self.url = url
        self.timeout = timeout
        self.pin = pin
        self.port = port if port is not None else open_serial(url, baudrate=baudrate, timeout=0,
                                                              serial_for_url=serial_for_url)
        self._buffer = bytearray()
        try:
            self.port.reset_input_buffer()
            hello = self.ask("hello?")
            if hello.get("protocol") != PROTOCOL or hello.get("version") != VERSION:
                raise SerialProtocolError(f"{url} speaks {hello.get('protocol')!r} v{hello.get('version')}, not {PROTOCOL} v{VERSION}")
        except BaseException:
            self.port.close()
            raise

    # -- the wire ------------------------------------------------------------------------

    def ask(self, line: str, seconds: float = 0.0) -> dict[str, Any]:
        """Send one protocol line (an admin one with the ``pin=`` field) and return its answer (``ok`` true)."""
        data = self._wire(line).encode("utf-8")
        if b"\n" in data or len(data) > MAX_LINE:
            raise SerialProtocolError(f"not one protocol line: {line!r}")
        self.port.write(data + b"\n")
        self.port.flush()
        answer = self._read_line(time.monotonic() + self.timeout + seconds)
        try:
            reply = json.loads(answer)
        except ValueError:
            raise SerialProtocolError(f"{self.url} answered {answer[:80]!r}, not JSON") from None
        if not isinstance(reply, dict) or "ok" not in reply:
            raise SerialProtocolError(f"{self.url} answered {answer[:80]!r}, not a protocol answer")
        if not reply["ok"]:
            if reply.get("needs_pin") is True:
                raise NotAuthorised(f"device refused {line!r}: {reply.get('error')}")
            raise SerialProtocolError(f"device refused {line!r}: {reply.get('error')}")
        return reply

    def _wire(self, line: str) -> str:
        """``line`` as sent: a banker's act gets the PIN field (a text no keypad could type goes as a wrong PIN)."""
        words = line.split(None, 1)
        if self.pin is None or not words or words[0].lower() not in ADMIN_VERBS:
            return line
        return f"{line} {PIN_FIELD}{self.pin if is_pin(self.pin) else '-'}"

    def _read_line(self, deadline: float) -> str:
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                raw = bytes(self._buffer[:end])
                del self._buffer[:end + 1]
                return raw.decode("utf-8", errors="replace")
            if time.monotonic() > deadline:
                raise SerialTimeout(f"no answer from {self.url}")
            data = read_waiting(self.port)  # what has come, in one read
            if not data:
                time.sleep(READ_PAUSE)
            elif len(self._buffer) + len(data) > MAX_ANSWER:
                raise SerialProtocolError(f"{self.url} sent more than {MAX_ANSWER} bytes without a line end")
            self._buffer += data

    # -- the script Backend ---------------------------------------------------------------

    def enrol(self, name: str, uid: str) -> None:
        self.ask(f"enrol {quote(name)} {uid}")

    def insert(self, reader: str, name: str) -> None:
        self.ask(f"insert {reader} {quote(name)}")

    def stack(self, reader: str, name: str) -> None:
        self.ask(f"stack {reader} {quote(name)}")

    def remove(self, reader: str) -> None:
        self.ask(f"remove {reader}")

    def press(self, key: str) -> None:
        self.ask(f"press {key}")

    def hold(self, key: str, seconds: float) -> None:
        self.ask(f"hold {key} {seconds:g}", seconds)

    def wait(self, seconds: float) -> None:
        self.ask(f"wait {seconds:g}", seconds)

    def balance(self, name: str) -> int | None:
        return self.ask(f"balance? {quote(name)}")["balance"]

    def balances(self) -> dict[str, int]:
        return self.ask("balances?")["balances"]

    def screen_lines(self) -> list[str]:
        return self.ask("screen?")["screen"]

    def status(self) -> dict[str, Any]:
        return self.ask("status?")

    # title deeds and the rules
    def enrol_deed(self, slug: str, uid: str) -> None:
        self.ask(f"enrol-deed {quote(slug)} {uid}")

    def owner(self, slug: str) -> str:
        return self.ask(f"owner? {quote(slug)}")["owner"]

    def houses(self, slug: str) -> int:
        return self.ask(f"houses? {quote(slug)}")["houses"]

    def mortgaged(self, slug: str) -> bool:
        return self.ask(f"mortgaged? {quote(slug)}")["mortgaged"]

    def bank_buildings(self) -> tuple[int, int]:
        answer = self.ask("bank-buildings?")
        return answer["houses"], answer["hotels"]

    def worth(self, name: str) -> int | None:
        return self.ask(f"worth? {quote(name)}")["worth"]

    def close(self) -> None:
        self.port.close()

    def __enter__(self) -> SerialBackend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def serial_backend(url: str, *, pin: str | None = None) -> SerialBackend:
    """The ``serial`` backend of the CLI's table: the unit at ``url``, asked over its test port."""
    return SerialBackend(url, pin=pin)


class CoreTarget(CoreBackend):
    """The core unit on simulated time as a serial-port target: the script driver, ``via="serial"``.

    ``insert`` also takes a hex UID; its banker's acts are checked with the
    PIN each line carries: the unit keeps no PIN of its own for them (``pin``
    is ignored).
    """

    def __init__(self, ledger, *, start: float = 0.0, pin: str | None = None) -> None:
        super().__init__(ledger, start=start, via="serial", hex_names=True)


class NullModem:
    """A cable between two ``socket://127.0.0.1:PORT`` URLs: bytes written at one end come out at the other.

    Open the device end (:attr:`device_url`) and the client end
    (:attr:`client_url`) with pyserial in either order; :meth:`close` cuts it.
    """

    def __init__(self) -> None:
        self._listeners = [socket.create_server(("127.0.0.1", 0)) for _ in range(2)]
        self.device_url, self.client_url = (f"socket://127.0.0.1:{s.getsockname()[1]}" for s in self._listeners)
        self._ends: list[socket.socket | None] = [None, None]
        self._closed = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="null-modem", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        for listener in self._listeners:
            listener.settimeout(10.0)
        accepted = []
        for listener in self._listeners:
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                return
        self._ends = accepted
        self._ready.set()
        pumps = [threading.Thread(target=self._pump, args=(accepted[a], accepted[1 - a]), daemon=True) for a in (0, 1)]
        for pump in pumps:
            pump.start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        while not self._closed.is_set():
            try:
                data = source.recv(4096)
                if not data:
                    return
                sink.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        self._closed.set()
        for s in self._listeners + [e for e in self._ends if e is not None]:
            try:
                s.close()
            except OSError:
                pass

    def __enter__(self) -> NullModem:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
