"""The benchmarks still run: each one in its ``--quick`` mode (a few hundred rows), as a child process, no timing asserted.

They print figures for people (docs/performance.md); this only keeps them
from rotting as the code under them changes.
"""

import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"

QUICK = ["bench_scale.py", "bench_commit.py", "bench_latency.py", "bench_core.py", "bench_display.py",
         "bench_crash.py", "bench_backup.py", "bench_powercut.py", "bench_payment.py", "bench_startup.py",
         "bench_long_game.py"]


@pytest.mark.parametrize("script", QUICK)
def test_benchmark_runs_quick(script, tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    for name in ("BANKER_DB", "BANKER_CONFIG", "BANKER_PIN"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), "--quick"], capture_output=True, text=True,
                          env=env, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "FAILED" not in done.stdout, done.stdout[-3000:]
    assert "problem(s)" not in done.stdout, done.stdout[-3000:]  # a ledger built for it must verify clean
    assert done.stdout.strip(), "it printed no figures"


def test_the_zero2_factors_are_the_published_central_and_pessimistic_ones(monkeypatch, tmp_path):
    monkeypatch.setenv("TMPDIR", str(tmp_path))  # importing it points the keys folder at its cache: undone after
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setenv("BANKER_KEY_DIR", str(tmp_path / "keys"))
    spec = importlib.util.spec_from_file_location("benchmarks_common", BENCHMARKS / "common.py")
    common = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = common  # its dataclasses look their module up
    try:
        spec.loader.exec_module(common)
    finally:
        del sys.modules[spec.name]
    assert [f for _, f in common.ZERO2_FACTORS] == [14, 20] and common.ZERO2_CPU_FACTOR == 14
    assert common.zero2(0.002) == pytest.approx(0.028) and common.zero2(0.002, 20) == pytest.approx(0.040)
