"""Screenshots of the table page for the docs: ``python -m web.screenshots`` writes docs/img/web-phone.png, web-tv.png,
page-house-rules.png and page-german.png.

It plays the demo game (:mod:`web.demo`) on a fresh ledger, serves it on
localhost and photographs the page in headless Chromium (:mod:`web.chromium`)
as a phone (390 px wide, the whole page) and as a TV (1920 x 1000: 1080p less a browser's toolbar); then the
house-rules demo (the Free Parking pot, 42 minutes left of a time-limit short game) on a phone's first screen; then the
demo game in German (its ``language`` setting, as ``FN 8`` ``2`` journals it) on a phone's first screen.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from .background import serve_in_background
from .chromium import chromium
from .demo import play_demo, play_house_rules_demo

PHONE = (390, 844)
TV = (1920, 1000)  # a 1080p TV less its browser's toolbar


def wait_for_state(driver, timeout: float = 10.0) -> None:
    """Wait until the page has drawn a state from the server."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if driver.execute_script("return document.body.dataset.seq || null") is not None:
            return
        time.sleep(0.05)
    raise TimeoutError("the page drew no state")


def shoot(url: str, size: tuple[int, int], out: Path, *, full_page: bool) -> None:
    width, height = size
    with chromium(width, height) as driver:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 800})
        driver.get(url)
        wait_for_state(driver)
        time.sleep(1.8)  # the changed-balance highlight fades
        if full_page:
            tall = driver.execute_script("return document.documentElement.scrollHeight")
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": tall, "deviceScaleFactor": 1, "mobile": True})
        out.write_bytes(driver.get_screenshot_as_png())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "docs" / "img")
    args = parser.parse_args(argv)
    from banker.text.i18n import LANGUAGE_KEY
    from banker.journal.records import Setting
    from runtime.ledger import SqliteLedger

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "demo.db"
        with SqliteLedger(path) as ledger:
            play_demo(ledger)
        with serve_in_background(path, host="127.0.0.1", port=0) as page:
            shoot(page.url, PHONE, args.out / "web-phone.png", full_page=True)
            shoot(page.url, TV, args.out / "web-tv.png", full_page=False)
        path = Path(folder) / "house-rules.db"
        with SqliteLedger(path) as ledger:
            play_house_rules_demo(ledger)
        with serve_in_background(path, host="127.0.0.1", port=0) as page:
            shoot(page.url, PHONE, args.out / "page-house-rules.png", full_page=False)
        path = Path(folder) / "german.db"
        with SqliteLedger(path) as ledger:
            play_demo(ledger)
            ledger.commit(Setting(LANGUAGE_KEY, "de"))
        with serve_in_background(path, host="127.0.0.1", port=0) as page:
            shoot(page.url, PHONE, args.out / "page-german.png", full_page=False)
    for name in ("web-phone.png", "web-tv.png", "page-house-rules.png", "page-german.png"):
        print(args.out / name)


if __name__ == "__main__":
    main()
