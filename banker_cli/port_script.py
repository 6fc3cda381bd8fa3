"""``banker script FILE --port URL``: a keypad script played on a unit over its serial test port, every answer checked.

Imported only for a script on a port (``banker run`` and ``banker doctor``
do not load the simulator's serial client).
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable

import click

from banker.errors import BankerError
from drivers.errors import SerialProtocolError
from firmware_sim.serial_backend import SerialBackend

from .common import UNUSABLE, describe, fail, failing, play_lines, shown


class DeviceAnswerError(BankerError, OSError):
    """The unit at the other end of the test port answered something that is not the protocol: it can't be used."""


def _is(kind: type | tuple, *, none: bool = False) -> Callable[[Any], bool]:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return lambda v: (none and v is None) or (isinstance(v, kinds) and not (isinstance(v, bool) and bool not in kinds))


_INT, _TEXT = _is(int), _is(str)


class CheckedDevice(SerialBackend):
    """The serial test port's client, with every answer checked for its shape before it is believed.

    A step the device refuses stays :class:`SerialProtocolError` (exit 2, as
    a step the unit can't take); an answer that isn't the protocol (not JSON,
    a field missing or of the wrong kind) is :class:`DeviceAnswerError` (exit 3).
    """

    def ask(self, line: str, seconds: float = 0.0) -> dict[str, Any]:
        try:
            return super().ask(line, seconds)
        except SerialProtocolError as exc:
            if str(exc).startswith("device refused"):
                raise
            raise DeviceAnswerError(str(exc)) from None
        except (RecursionError, MemoryError):  # JSON nested past reason
            raise DeviceAnswerError(f"{self.url} answered {line!r} with something too deep to read") from None

    def _field(self, line: str, key: str, good: Callable[[Any], bool], what: str) -> Any:
        answer = self.ask(line)
        value = answer.get(key, ...)
        if value is ... or not good(value):
            raise DeviceAnswerError(f"{self.url} answered {line!r} without {what} in {key!r}: {str(answer)[:80]}")
        return value

    def screen_lines(self) -> list[str]:
        return self._field("screen?", "screen", lambda v: isinstance(v, list) and all(map(_TEXT, v)), "a list of lines")

    def balance(self, name: str) -> int | None:
        return self._field(f"balance? {name}", "balance", _is(int, none=True), "a whole number of dollars")

    def balances(self) -> dict[str, int]:
        return self._field("balances?", "balances", lambda v: isinstance(v, dict) and all(map(_INT, v.values())),
                           "dollars by name")

    def status(self) -> dict[str, Any]:
        answer = self.ask("status?")
        shape = {"screen": lambda v: isinstance(v, list) and all(map(_TEXT, v)), "volume": _INT, "game": _INT,
                 "balances": lambda v: isinstance(v, dict) and all(map(_INT, v.values()))}
        bad = next((k for k, good in shape.items() if not good(answer.get(k))), None)
        if bad is not None:
            raise DeviceAnswerError(f"{self.url} answered 'status?' without a good {bad!r}: {str(answer)[:80]}")
        return answer

    def owner(self, slug: str) -> str:
        return self._field(f"owner? {slug}", "owner", _TEXT, "a name")

    def houses(self, slug: str) -> int:
        return self._field(f"houses? {slug}", "houses", lambda v: _INT(v) and 0 <= v <= 5, "a count 0-5")

    def mortgaged(self, slug: str) -> bool:
        return self._field(f"mortgaged? {slug}", "mortgaged", lambda v: isinstance(v, bool), "yes or no")

    def bank_buildings(self) -> tuple[int, int]:
        answer = self.ask("bank-buildings?")
        if not (_INT(answer.get("houses")) and _INT(answer.get("hotels"))):
            raise DeviceAnswerError(f"{self.url} answered 'bank-buildings?' without counts: {str(answer)[:80]}")
        return answer["houses"], answer["hotels"]

    def worth(self, name: str) -> int | None:
        return self._field(f"worth? {name}", "worth", _is(int, none=True), "a whole number of dollars")


def script_on_port(name: str, lines, url: str, *, as_json: bool, quiet: bool, timeout: float | None = None,
                   pin: str | None = None) -> None:
    """``banker script FILE --port URL``: play ``lines`` on the unit at ``url``; exit codes as on a ledger.

    ``timeout``: seconds to wait for each answer (beyond what a ``wait`` takes).
    """
    import json

    from firmware_sim.serial_backend import ANSWER_MARGIN

    try:
        remote = CheckedDevice(url, timeout=ANSWER_MARGIN if timeout is None else timeout, pin=pin)
    except Exception as exc:  # no such port, nobody answers, not a banker: the device can't be used
        if not isinstance(exc, (BankerError, OSError, ValueError)):
            raise
        fail(f"{url}: {describe(exc)}", UNUSABLE)
    try:
        failure, held = play_lines(name, lines, remote)
        if as_json:
            with failing(f"{name}: "):
                click.echo(json.dumps({**remote.status(), "screen": remote.screen_lines()}))
    finally:
        remote.port.close()
    if failure is not None:
        fail(f"{name}: {failure}", 1)
    if not (quiet or as_json):
        click.echo(f"{shown(name)}: passed on {shown(url)}: {held} expectation{'s' * (held != 1)} held")
