"""The simulator's tests: a window with no screen or sound card (SDL's dummy drivers), and a table of two players."""

import pytest

from runtime.ledger import SqliteLedger


@pytest.fixture(autouse=True)
def headless(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


@pytest.fixture
def ledger():
    """A fresh game in memory with Alice (card A1) and Bob (card B2) enrolled."""
    with SqliteLedger(":memory:") as led:
        led.enrol("Alice", "A1")
        led.enrol("Bob", "B2")
        yield led
