"""Power-cut harness, the whole set: every operation, every crash point (tests/crash/powercut.py).

Prints per operation: the file-system changes recorded, the crash points
cut, the distinct disk states judged (only what was durable; all of it;
random mixes of what was not, the last write torn) and how many held. Every
state must hold: the last line says how many did not.

    python benchmarks/bench_powercut.py [--quick] [--only NAME] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from common import ROOT

sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the payment only, its sampled points: proves it runs")
    parser.add_argument("--only", help="one operation by name (e.g. 'backup to a stick')")
    parser.add_argument("--seed", type=int, default=1, help="the random mixes' seed")
    args = parser.parse_args()
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    from tests.crash.powercut import cut_power
    from tests.crash.test_powercut import OPERATIONS, unplug

    chosen = [(op, start) for op, start in OPERATIONS
              if (args.only or ("payment" if args.quick else op.name)) == op.name]
    failed = 0
    print(f"{'operation':<28} {'changes':>8} {'points':>7} {'states':>7} {'held':>6} {'seconds':>8}")
    for operation, start in chosen:
        with tempfile.TemporaryDirectory() as folder:
            began = time.perf_counter()
            try:
                report = cut_power(operation, start(Path(folder) / "pristine"), Path(folder), every=not args.quick,
                                   seed=args.seed)
            finally:
                unplug(Path(folder))
            print(f"{operation.name:<28} {report.ops:>8} {report.points:>7} {report.states:>7} {report.held:>6} "
                  f"{time.perf_counter() - began:>8.1f}", flush=True)
            for failure in report.failures:
                print(f"    {failure[:400]}")
            failed += len(report.failures)
    print(f"states that did not hold: {failed}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
