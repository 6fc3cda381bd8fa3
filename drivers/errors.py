"""The drivers' errors for the display, keypad, buzzer and serial test port, under the banker's one root.

Each leaf also subclasses the matching built-in, the way gpiozero's do, so a
caller that only knows ``OSError`` or ``ValueError`` still catches it.
"""

from __future__ import annotations

from banker.errors import BankerError


class DeviceMissing(BankerError, OSError):
    """A bus or device the configuration names is not there (no /dev/i2c-1, nothing answers at 0x3C).

    The message says what to check (wiring, address, ``raspi-config``).
    """


class DriverLibraryMissing(BankerError, ImportError):
    """A vendor library a driver needs (luma.oled, smbus2, spidev, pyserial) is not installed."""


class SerialProtocolError(BankerError, ValueError):
    """The other end of the serial test port answered something that is not the protocol, or refused a command."""


class SerialTimeout(BankerError, TimeoutError):
    """The device on the serial test port did not answer in time."""
