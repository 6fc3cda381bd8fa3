"""What the table page's browser tests share: polling for what the page shows, a phone's viewport, a silent speech
synthesis (the fixtures ``browser`` and ``unit`` are tests/conftest.py's)."""

from __future__ import annotations

import time

#: The phone the page tests use (a window can't be made narrower than 500 px: the viewport is emulated).
PHONE = (390, 844)
#: The speech synthesis replaced, so that nothing is said and the tests hear what would be.
QUIET = "window.spoken = []; speechSynthesis.speak = (u) => window.spoken.push([u.lang, u.text]);"


def until(check, timeout: float, what: str):
    """``check()``'s first true value within ``timeout`` seconds, else an AssertionError naming ``what``."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.02)


def as_device(driver, width: int, height: int) -> None:
    """The viewport of a phone or a TV (a window can't be made narrower than 500 px)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 800})
