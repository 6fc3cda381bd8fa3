"""The voice: the words built per event in the core (CPU), and espeak-ng's render of a sentence (latency, CPU, RSS).

Run: ``.venv/bin/python benchmarks/bench_voice.py`` (``--quick``: fewer runs).
The core's text building is Python, scaled to a Pi Zero 2 by the project's
constant (CPU x14 central and x20 pessimistic, benchmarks/common.py). espeak-ng is scalar C, scaled by
x8 (issue 22's research: an in-order A53 at 1 GHz against a 2.6 GHz Zen core,
~2.5x clock x ~3x per clock). Its wall time on this shared 2-core machine is
noisy: the CPU time is the figure to trust. Targets: the text under 0.5 ms
per event on a Zero 2 (it is built inside the step, before the frame); the
first word within ~150 ms of the frame (espeak-ng's render, then aplay).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time

from common import GNU_TIME, best_cpu, median, percentile, zero2  # (puts the tree on sys.path)

from banker.unit import voice
from banker.unit.events import KeyDown, Tick
from banker.unit.step import screen, step
from firmware_sim.memory_store import MemoryStore
from runtime.ledger import Ledger
from runtime.speaker import AMPLITUDE, Utterance, espeak_wav
from tests.conftest import Table

ESPEAK_FACTOR = 8.0
SENTENCES = {
    "en": "Alice pays Bob 2 million. Alice has 13 million. Bob has 17 million.",
    "de": "Alice zahlt Bob 2 Millionen. Alice hat 13 Millionen. Bob hat 17 Millionen.",
    "fr": "Alice paie 2 millions à Bob. Alice a 13 millions. Bob a 17 millions.",
}


def text_building(runs: int) -> None:
    with Ledger(MemoryStore()) as ledger:
        table = Table(ledger)
        for name, uid in (("Alice", "A1"), ("Bob", "B2")):
            table.enrol(name, uid)
        table.insert("right", "Alice")
        table.insert("left", "Bob")
        table.type("2")
        cases = {}
        panel, game = table.shell.panel, ledger.game()
        cases["payment"] = (panel, game, step(panel, game, KeyDown("M", panel.now + 0.1)))
        table.type("0000")
        panel = table.shell.panel
        cases["refusal (short)"] = (panel, game, step(panel, game, KeyDown("M", panel.now + 0.1)))
        cases["idle tick"] = (panel, game, step(panel, game, Tick(panel.now + 0.2)))
        for name, case in cases.items():
            said = _said(*case)
            cpu = best_cpu(lambda case=case: [_said(*case) for _ in range(runs)], 3) / runs  # per call
            print(f"text {name:<16} {cpu * 1e6:8.1f} us CPU here  {zero2(cpu) * 1e3:6.3f} ms on a Zero 2 (x20 {zero2(cpu, 20) * 1e3:6.3f})"
                  f"  ({said!r})")


def _said(panel, game, outcome) -> str | None:
    """What the step's voice stage builds for ``outcome`` (banker.unit.step._with_voice, without the step around
    it): a refusal's screen drawn once, when the voice reads it out."""
    after = outcome.folded[1] if outcome.folded is not None else game
    shown = screen(outcome.panel, after) if voice.reads_screen(panel, outcome) else None
    return voice.said(panel, game, outcome, shown)


def espeak(runs: int) -> None:
    for lang, text in SENTENCES.items():
        walls, cpus = [], []
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            wav = espeak_wav(Utterance(text, lang, AMPLITUDE[2], 160))
            walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        seconds = (len(wav) - 44) / 2 / 22050
        cpu = median(cpus)
        print(f"espeak-ng {lang}: render wall median {median(walls) * 1e3:5.1f} ms (p90 {percentile(walls, 0.9) * 1e3:5.1f})"
              f", CPU {cpu * 1e3:5.1f} ms here, ~{cpu * ESPEAK_FACTOR * 1e3:4.0f} ms on a Zero 2 (x{ESPEAK_FACTOR:g});"
              f" {seconds:.2f} s of speech")
    print(f"espeak-ng max RSS {_rss_kb(['espeak-ng', '--stdout', SENTENCES['en']]) / 1024:.1f} MB, aplay "
          f"{_rss_kb(['aplay', '-q', '-D', 'null', '-'], wav) / 1024:.1f} MB: short-lived processes, one per sentence")


def _rss_kb(args: list[str], data: bytes = b"") -> float:
    """The peak RSS of ``args`` alone in KB, by GNU time (a child's own figure from here would count this
    Python process's pages it was forked from); else that upper bound. (``common.run_child`` can't feed stdin.)"""
    if GNU_TIME.exists():
        done = subprocess.run([str(GNU_TIME), "-f", "%M", *args], input=data, capture_output=True)
        return float(done.stderr.decode().strip().splitlines()[-1])
    subprocess.run(args, input=data, capture_output=True)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def main() -> None:
    quick = "--quick" in sys.argv
    text_building(200 if quick else 2000)
    espeak(3 if quick else 20)


if __name__ == "__main__":
    main()
