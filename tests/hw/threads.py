"""Helpers for the tests whose threads are real: wait for a scanner to be running before acting on it."""

from __future__ import annotations

import time

from drivers.keypad import MatrixKeypad

WAIT = 5.0


def scanning(keypad: MatrixKeypad, *, scans: int = 2) -> None:
    """Wait until the scanner has read the matrix ``scans`` times without failing.

    A key pressed before the first good scan counts as "down at start-up" and is ignored until it is
    released, so a test must not press before then. Scans run one after the other on one thread, so the
    second good read has begun only once the first scan was wholly taken in.
    """
    real, good = keypad.read_matrix, []

    def read_matrix():
        keys = real()
        good.append(1)
        return keys

    keypad.read_matrix = read_matrix
    deadline = time.monotonic() + WAIT
    while len(good) < scans and time.monotonic() < deadline:
        time.sleep(0.002)
    assert len(good) >= scans, "the keypad never scanned"
