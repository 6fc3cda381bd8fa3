"""Shared fixtures: a unit on a fresh in-memory ledger (the MemoryStore fake), driven like a player would."""

from __future__ import annotations

import pytest

from runtime.script_shell import CoreBackend
from firmware_sim.memory_store import MemoryStore
from runtime.ledger import Ledger


class Table(CoreBackend):
    """The unit on the table: place cards, press keys, read the screen."""

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.press(key)

    def type(self, text: str) -> None:
        """Press each character of ``text`` ("1.5M"; "GO"/"FN" as whole words)."""
        for key in (text.split() if " " in text else ([text] if text in ("GO", "FN") else list(text))):
            self.press(key)

    @property
    def shown(self) -> str:
        return " | ".join(self.screen_lines())

    def tones(self) -> list[str]:
        return [e.tone for e in self.effects if hasattr(e, "tone")]


@pytest.fixture(autouse=True, scope="session")
def _keys_apart(tmp_path_factory):
    """Every ledger's key and anchor in a folder of the test session's (and its subprocesses'), not the user's."""
    import os

    from store.keys import KEY_ENV

    old = os.environ.get(KEY_ENV)
    os.environ[KEY_ENV] = str(tmp_path_factory.mktemp("keys"))
    yield
    if old is None:
        os.environ.pop(KEY_ENV, None)
    else:
        os.environ[KEY_ENV] = old


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture
def ledger(store):
    with Ledger(store) as led:
        yield led


@pytest.fixture
def table(ledger) -> Table:
    t = Table(ledger)
    t.enrol("Alice", "A1")
    t.enrol("Bob", "B2")
    return t


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium as a phone, for the module's tests."""
    from tests.web.support import PHONE, as_device
    from web.chromium import chromium

    with chromium(*PHONE) as driver:
        as_device(driver, *PHONE)
        yield driver


@pytest.fixture
def unit(tmp_path):
    """A ledger file with Alice (A1) and Bob (B2) enrolled."""
    from runtime.ledger import SqliteLedger

    with SqliteLedger(tmp_path / "ledger.db") as ledger:
        ledger.enrol("Alice", "A1")
        ledger.enrol("Bob", "B2")
        yield ledger


def pytest_terminal_summary(terminalreporter, config):
    """The crash harnesses' counts (kills: calls enumerated, points killed, points held; power cuts: changes recorded,
    crash points, states judged, held), for the closing note; and the
    random order's seed (pytest-randomly shuffles the tests each run), so an order dependence can be replayed."""
    from tests.crash.harness import summary
    from tests.crash.powercut import summary as power_cuts

    for line in summary() + power_cuts():
        terminalreporter.write_line(line)
    seed = getattr(config.option, "randomly_seed", None)
    if seed is not None and getattr(config.option, "randomly_reorganize", True):
        terminalreporter.write_line(f"tests ran in a random order, seed {seed}: replay it with "
                                    f"'python -m pytest --randomly-seed={seed}'")


@pytest.fixture
def stick(tmp_path, monkeypatch):
    """A USB stick's folder, ``[backups] second_folder``: on a device of its own, as the store requires of it."""
    import store.backup_schedule as schedule

    folder = tmp_path / "media" / "stick"
    folder.mkdir(parents=True)
    ours = str(folder)
    real = schedule.device_of
    monkeypatch.setattr(schedule, "device_of", lambda path: -1 if str(path).startswith(ours) else real(path))
    return folder
