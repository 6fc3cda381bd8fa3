"""Run ``banker ARGS...``; print ``first-frame <time.monotonic()> cpu <time.process_time()>`` when the OLED is first drawn.

A spy for ``bench_scale.py``: it wraps ``drivers.display.OledDisplay.show``
(the driver's one entry for a frame, on the Pi as on ``--backend hw-sim``)
in this process only, then runs the command as ``banker`` would. Linux's
monotonic clock is one clock for every process, so the parent subtracts
the moment it started this one; the CPU figure is this process's own from
its start (the interpreter's start included) to that frame.

    python benchmarks/first_frame.py run --backend hw-sim --seconds 0.5 --db LEDGER
"""

from __future__ import annotations

import sys
import time


def main() -> None:
    from drivers.display import OledDisplay

    original = OledDisplay.show
    seen = []

    def show(self, screen):
        original(self, screen)
        if not seen:
            seen.append(time.monotonic())
            print(f"first-frame {seen[0]!r} cpu {time.process_time()!r}", file=sys.stderr, flush=True)

    OledDisplay.show = show
    from banker_cli.main import cli

    sys.argv[0] = "banker"
    cli(sys.argv[1:])


if __name__ == "__main__":
    main()
