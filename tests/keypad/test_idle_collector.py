"""The garbage collector never walks the whole heap behind a key: frozen at start, full runs only when idle."""

import gc

import pytest

from banker.unit.events import KeyDown, KeyUp
from runtime.collector import Collector
from runtime.shell import Shell


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def unit(ledger):
    clock = Clock()
    collector = Collector(clock=clock)
    shell = Shell(ledger, clock=clock, now=0.0, collector=collector)
    yield shell, clock, collector
    gc.unfreeze()


def cycle() -> None:
    a: list = []
    a.append(a)  # a reference cycle, garbage at once: only the collector frees it


def press(shell, clock, key: str) -> None:
    shell.handle(KeyDown(key, clock()))
    shell.handle(KeyUp(key, clock()))


def test_the_start_up_heap_is_frozen_before_the_first_key(unit):
    shell, clock, collector = unit
    shell.run(until=0.05, sleep=clock.advance)
    assert gc.get_freeze_count() > 1000 and len(collector.pauses) == 1


def test_no_full_collection_while_keys_come_then_one_once_idle(unit):
    shell, clock, collector = unit
    shell.run(until=0.05, sleep=clock.advance)
    clock.advance(61)
    for _ in range(10):  # keys a second apart: never idle for 2 s
        press(shell, clock, "1")
        shell.run(until=clock() + 1.0, sleep=clock.advance)
    assert len(collector.pauses) == 1
    found = []
    gc.callbacks.append(lambda phase, info: found.append(info["collected"]) if phase == "stop" else None)
    try:
        cycle()
        shell.run(until=clock() + 2.5, sleep=clock.advance)
    finally:
        gc.callbacks.pop()
    assert len(collector.pauses) == 2 and sum(found) >= 1  # the cycle made in play was freed, idle


def test_full_collections_are_a_minute_apart_at_least(unit):
    shell, clock, collector = unit
    shell.run(until=clock() + 3, sleep=clock.advance)
    shell.run(until=clock() + 30, sleep=clock.advance)
    assert len(collector.pauses) == 1
    shell.run(until=clock() + 40, sleep=clock.advance)
    assert len(collector.pauses) == 2
