"""The ``hw-sim`` keypad-script backend: a script's cards and keys laid on the simulated chips, read by the real drivers.

:class:`HwSimBackend` is the script driver (:class:`banker.script.driver.ScriptDriver`)
with :class:`ChipHands` on a :class:`~firmware_sim.hw_sim.SimulatedHardware`:
a card is a tag laid on a chip's antenna, a key is a finger on the matrix,
and the unit only learns of them by the drivers' polling, on a simulated
clock. A ``stack`` lays a second tag in the same chip's field, so the driver
meets the collision itself.
"""

from __future__ import annotations

from banker.errors import ScriptError
from banker.script.driver import ScriptDriver
from banker.unit.events import Tick
from firmware_sim.hw_sim import SimulatedHardware
from firmware_sim.mfrc522_chip import Picc
from runtime.config import Config
from runtime.device import Device, open_device
from runtime.ledger import Ledger
from runtime.shell import Shell

STEP = 0.005  # the simulated main loop's resolution (the keypad scan interval)


class ChipHands:
    """The hw-sim backend's hands: tags on the chips' antennas, fingers on the matrix, time on the chips' clock.

    The unit learns of them only through the real drivers, polled by a
    simulated main loop (:meth:`_run`); ``wrap`` (a spy) wraps the shell.
    """

    def __init__(self, ledger: Ledger, config: Config | None = None, *, wrap=None) -> None:
        self.hw = SimulatedHardware(config or Config())
        self.hw.__enter__()
        try:
            self.device: Device = open_device(self.hw.config, self.hw)
        except BaseException:
            self.hw.__exit__(None, None, None)
            raise
        shell = Shell(ledger, display=self.device.display, buzzer=self.device.buzzer, clock=self.hw.clock,
                      now=self.hw.clock(), sleep_after=self.hw.config.sleep_after,
                      auction_seconds=self.hw.config.auction_seconds, language=self.hw.config.language)
        self.shell = wrap(shell) if wrap is not None else shell
        self.cards_on: dict[str, list[Picc]] = {}
        self._was_stacked: dict[str, bool] = {}
        self._next_poll = self._next_tick = self.hw.clock()
        self._fine_until = 0.0
        self._run(0.05)  # the keypad's first scans: nothing is down at power-up

    # -- the simulated main loop: the chips' clock ------------------------------------------

    def _run(self, seconds: float) -> None:
        """Let ``seconds`` of simulated time pass: keypad scans, reader polls, clock ticks."""
        end = self.hw.clock() + seconds
        while self.hw.clock() < end - 1e-9:
            fine = self.hw.matrix.pressed or self.hw.clock() < self._fine_until
            step = STEP if fine else self.hw.config.poll_interval
            self.hw.clock.advance(min(step, end - self.hw.clock()))
            for event in self.device.keypad.scan_once():
                self.shell.handle(event)
            now = self.hw.clock()
            if now >= self._next_poll:
                for event in self.device.slots.poll():
                    self.shell.handle(event)
                self._next_poll = self.hw.clock() + self.hw.config.poll_interval
            if now >= self._next_tick:
                self.shell.handle(Tick(now))
                self._next_tick = now + 0.1

    def _chip(self, reader: str):
        chip = self.hw.chips.get(reader)
        if chip is None:
            raise ScriptError(0, f"this build has no {reader} reader")
        return chip

    def _card(self, uid: str) -> Picc:
        try:
            return Picc.from_hex(uid)
        except ValueError as exc:
            raise ScriptError(0, f"UID {uid} can't be on a real card (4 or 7 bytes): {exc}") from None

    def _take(self, reader: str) -> None:
        for card in self.cards_on.pop(reader, []):
            self._chip(reader).take(card)

    # -- the hands -------------------------------------------------------------------------

    def insert(self, reader: str, uid: str, name: str = "") -> None:
        card = self._card(uid)
        chip = self._chip(reader)
        self._take(reader)
        self.cards_on[reader] = [chip.place(card)]
        self._run(self.hw.config.removal_after + 0.2 if self._was_stacked.pop(reader, False) else 0.15)

    def stack(self, reader: str, uid: str, name: str = "") -> None:
        """Lay another card in the chip's field beside the ones there: the real driver sees them collide."""
        card = self._card(uid)
        chip = self._chip(reader)
        held = self.cards_on.setdefault(reader, [])
        if any(c.uid == card.uid for c in held):
            raise ScriptError(0, f"card {card.uid_hex} already lies on the {reader} reader: "
                                 "a card can't be stacked on itself")
        held.append(chip.place(card))
        if len(held) > 1:
            self._was_stacked[reader] = True
        self._run(0.15)

    def remove(self, reader: str) -> None:
        self._take(reader)
        self._was_stacked.pop(reader, None)
        self._run(self.hw.config.removal_after + 0.2)

    def hold(self, key: str, seconds: float) -> None:
        self.hw.matrix.press(key)
        self._run(max(seconds, 0.06))
        self.hw.matrix.release(key)
        self._fine_until = self.hw.clock() + 0.1
        self._run(0.06)

    def wait(self, seconds: float) -> None:
        self._run(seconds)

    def close(self) -> None:
        self.device.close()
        self.hw.__exit__(None, None, None)


class HwSimBackend(ScriptDriver):
    """The ``hw-sim`` keypad-script backend: the script driver with :class:`ChipHands`.

    ``hw`` (the chips) and ``device`` (the real drivers) are the hands'.
    ``pin``: the banker's PIN for the script's ``enrol`` and ``enrol-deed``.
    """

    def __init__(self, ledger: Ledger, config: Config | None = None, *, pin: str | None = None, wrap=None) -> None:
        hands = ChipHands(ledger, config, wrap=wrap)
        super().__init__(hands.shell, hands, pin=pin)
