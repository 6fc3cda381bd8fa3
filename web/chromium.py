"""Headless Chromium for the page's browser tests and screenshots: Debian's ``chromium`` driven by selenium.

Nothing is downloaded: the browser and its driver are the system's
(``apt-get install chromium chromium-driver``; ``.ci/run`` installs them),
started with a fresh profile and every background service off.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from collections.abc import Iterator

BROWSERS = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DRIVERS = ("/usr/bin/chromedriver",)


def _first(paths: tuple[str, ...], name: str) -> str:
    found = next((p for p in paths if os.path.exists(p)), None) or shutil.which(name)
    if found is None:
        raise FileNotFoundError(f"{name} is not installed: apt-get install -y chromium chromium-driver")
    return found


@contextmanager
def chromium(width: int = 1280, height: int = 900, *, text_size: int | None = None,
             locale: str | None = None) -> Iterator[object]:
    """A selenium WebDriver on headless Chromium with a ``width`` x ``height`` window; quit afterwards.

    ``text_size``: the browser's default font size in px (its "Font size" setting; 16 unless set);
    ``locale``: the browser's own language (``en-US``: its ``--lang`` and ``intl.accept_languages``; the system's unless set).
    """
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="banker-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = _first(BROWSERS, "chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
                 "--force-color-profile=srgb", f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    prefs: dict[str, object] = {}
    if text_size is not None:
        prefs["webkit.webprefs.default_font_size"] = text_size
    if locale is not None:
        options.add_argument(f"--lang={locale}")
        prefs["intl.accept_languages"] = locale
    if prefs:
        options.add_experimental_option("prefs", prefs)
    os.environ.setdefault("SE_AVOID_STATS", "true")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=_first(DRIVERS, "chromedriver")))
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
