"""What every benchmark shares: the Pi Zero 2 scaling constant, figures with targets, timing, child processes.

**The Pi Zero 2 factors.** :data:`ZERO2_FACTORS`: CPU time measured here
times 14 is the central estimate for a Raspberry Pi Zero 2 W (4x Cortex-A53
at 1 GHz; CPython runs one thread on one core), times 20 the pessimistic
one; a first key after a pause, when the Zero 2 idles at 600 MHz, costs
:data:`IDLE_CLOCK_FACTOR` more. Every benchmark scales CPU time with these,
prints both, and scales only CPU time: waits that a Pi spends idle (a
modelled bus, a modelled fsync, the poll interval) are added unscaled.
docs/performance.md names the published figures they come from.

**Figures.** :class:`Report` prints one aligned line per figure: its value,
the target from issue 11's table beside it and ``ok`` or ``over``.

**Keys.** The store keeps each ledger's key and the anchor of its head
apart from the file (store/keys.py, ``$BANKER_KEY_DIR``). Importing this
module points that at a folder under /tmp for this process and its
children, so a benchmark never writes into the user's own keys folder.

Building and caching big ledgers is :mod:`ledgers`'s.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable, Iterator, Sequence

#: CPU time here x this = the central estimate at a Raspberry Pi Zero 2's speed (docs/performance.md).
ZERO2_CPU_FACTOR = 14.0
#: CPU time here x this = the pessimistic estimate (pystone-like pure Python).
ZERO2_PESSIMISTIC_FACTOR = 20.0
#: Both, as every benchmark prints them: (label, factor).
ZERO2_FACTORS = (("central", ZERO2_CPU_FACTOR), ("pessimistic", ZERO2_PESSIMISTIC_FACTOR))
#: The Zero 2's cpufreq governor idles the cores at 600 MHz (arm_freq_min) and raises them to 1 GHz under load
#: within its sampling period: CPU spent right after a pause runs up to this much slower again.
IDLE_CLOCK_FACTOR = 1000 / 600

#: The tree the benchmarks measure: the one they sit in (run a copy's benchmarks to measure the copy).
ROOT = Path(__file__).resolve().parent.parent

if str(ROOT) not in sys.path:  # this tree's packages, before any other install of them
    sys.path.insert(1, str(ROOT))

#: The commit issue 33's work started from: the "before" of the benchmarks that run a tree before and after.
BEFORE_ISSUE33 = "c6caf7c"

#: Where the benchmarks keep what they build (ledgers, keys), under the temporary folder.
CACHE = Path(tempfile.gettempdir()) / "banker-bench-cache"
#: Where the store keeps each ledger's key and the anchor of its head (store/keys.py), apart from the file.
KEY_ENV = "BANKER_KEY_DIR"


def use_keys(folder: Path) -> None:
    """Ledgers opened from now on (here and in child processes) keep their keys and anchors in ``folder``."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    os.environ[KEY_ENV] = str(folder)


use_keys(CACHE / "keys")  # never the user's own keys folder

# -- figures ----------------------------------------------------------------------------------


def zero2(cpu_seconds: float, factor: float = ZERO2_CPU_FACTOR) -> float:
    """CPU seconds here as seconds on a Pi Zero 2 (the central factor unless told)."""
    return cpu_seconds * factor


def zero2_label(factor: float) -> str:
    """``Pi Zero 2 estimate (CPU x14)``: how a figure at ``factor`` is named."""
    return f"Pi Zero 2 estimate (CPU x{factor:g})"


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p`` (0-1) percentile, nearest rank (the largest for a handful of values and p95)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, int(round(len(ordered) * p + 0.5)) - 1))]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


@dataclass
class Report:
    """Figures printed as they are measured: ``name  value unit  [target ...: ok|over]``."""

    title: str
    width: int = 58
    verdicts: list[tuple[str, bool]] = field(default_factory=list)

    def __post_init__(self) -> None:
        print(f"== {self.title}", flush=True)

    def section(self, text: str) -> None:
        print(f"-- {text}", flush=True)

    def note(self, text: str) -> None:
        print(f"   {text}", flush=True)

    def figure(self, name: str, value: float | str, unit: str = "", *, target: float | None = None,
               at_most: bool = True, target_text: str | None = None, digits: int = 2) -> bool | None:
        """Print one figure; with a ``target`` (upper bound, or lower bound if not ``at_most``) its verdict."""
        shown = value if isinstance(value, str) else _number(value, digits)
        line = f"   {name:<{self.width}} {shown:>12} {unit:<8}"
        verdict = None
        if target is not None and not isinstance(value, str):
            verdict = value <= target if at_most else value >= target
            bound = target_text or f"{'<=' if at_most else '>='} {_number(target, digits)} {unit}".rstrip()
            line += f" target {bound}: {'ok' if verdict else 'over' if at_most else 'under'}"
            self.verdicts.append((name, verdict))
        print(line.rstrip(), flush=True)
        return verdict

    def zero2(self, name: str, cpu_seconds: float, *, extra_seconds: float = 0.0, target_ms: float | None = None) -> None:
        """Two lines, ``Pi Zero 2 estimate (CPU x14)`` and ``(CPU x20)``: CPU time scaled, plus unscaled waits, in
        ms, each with the target's verdict."""
        for _label, factor in ZERO2_FACTORS:
            self.figure(f"{zero2_label(factor)}: {name}", (zero2(cpu_seconds, factor) + extra_seconds) * 1000, "ms",
                        target=target_ms)

    def zero2_series(self, name: str, estimates: Callable[[float], Sequence[float]], *,
                     target_p95_ms: float | None = None, target_max_ms: float | None = None) -> None:
        """p50, p95 and max of ``estimates(factor)`` (seconds on a Zero 2 at that CPU factor), at both factors,
        in ms; the p95's and the max's targets with their verdicts."""
        for _label, factor in ZERO2_FACTORS:
            values = [v * 1000 for v in estimates(factor)]
            self.figure(f"{zero2_label(factor)}: {name} p50", median(values), "ms")
            self.figure(f"{zero2_label(factor)}: {name} p95", percentile(values, 0.95), "ms", target=target_p95_ms)
            self.figure(f"{zero2_label(factor)}: {name} max", max(values) if values else float("nan"), "ms",
                        target=target_max_ms)

    def summary(self) -> None:
        over = [name for name, ok in self.verdicts if not ok]
        print(f"== {self.title}: {len(self.verdicts) - len(over)} of {len(self.verdicts)} targets met"
              + (f"; missed: {'; '.join(over)}" if over else ""), flush=True)


def _number(value: float, digits: int) -> str:
    if value != value:  # NaN
        return "n/a"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


# -- timing -----------------------------------------------------------------------------------


@dataclass
class Timed:
    """Wall and CPU (user + system, this process) seconds of one block."""

    wall: float = 0.0
    cpu: float = 0.0


@contextmanager
def timed() -> Iterator[Timed]:
    result = Timed()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    try:
        yield result
    finally:
        result.wall = time.perf_counter() - wall0
        result.cpu = time.process_time() - cpu0


def repeat(func: Callable[[], object], times: int) -> tuple[list[float], list[float]]:
    """Run ``func`` ``times`` times: (wall seconds, CPU seconds) of each run."""
    walls, cpus = [], []
    for _ in range(times):
        with timed() as t:
            func()
        walls.append(t.wall)
        cpus.append(t.cpu)
    return walls, cpus


def rss_mib() -> float:
    """This process's resident set now, MiB (from /proc; the peak where /proc is missing)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def written_bytes() -> int:
    """Bytes this process has passed to write() so far (``wchar`` of /proc/self/io): WAL, checkpoints, backups."""
    fields = dict(line.split(": ") for line in Path("/proc/self/io").read_text().splitlines())
    return int(fields["wchar"])


# -- child processes --------------------------------------------------------------------------


@dataclass
class Child:
    """One finished child process: exit code, wall seconds, CPU seconds (user + system), peak RSS in MiB."""

    code: int
    wall: float
    cpu: float
    rss_mib: float
    stdout_bytes: int
    stderr: str
    started: float  # time.monotonic() just before it was spawned (one clock for every process on Linux)


def env() -> dict[str, str]:
    """The environment for child processes: this tree first on the path, no config or ledger from the user."""
    environ = dict(os.environ, PYTHONPATH=str(ROOT) + (os.pathsep + os.environ["PYTHONPATH"]
                                                       if os.environ.get("PYTHONPATH") else ""))
    for name in ("BANKER_DB", "BANKER_CONFIG", "BANKER_PIN"):
        environ.pop(name, None)
    environ.setdefault("SDL_VIDEODRIVER", "dummy")
    environ.setdefault("SDL_AUDIODRIVER", "dummy")
    return environ


def banker_argv(*args: str) -> list[str]:
    """The ``banker`` command of this tree (the venv's script, this tree first on the path) with ``args``."""
    script = Path(sys.executable).parent / "banker"
    if script.exists():
        return [sys.executable, str(script), *args]
    return [sys.executable, "-c", "import sys; from banker_cli.entry import main; sys.argv[0] = 'banker'; main()",
            *args]


#: GNU time: a small process between this one and the child, so the child's peak RSS is its own.
GNU_TIME = Path("/usr/bin/time")


def run_child(argv: Sequence[str], *, timeout: float = 600.0, rss: bool = True) -> Child:
    """Run ``argv`` to the end: wall time, CPU time (user + system, ``os.wait4``) and peak RSS of that child alone.

    A child's ``ru_maxrss`` starts from its parent's peak (Linux records the
    image it replaces at exec, even after a vfork), so with ``rss`` the child
    runs under GNU time (``/usr/bin/time -f %M``), whose own small image is
    what the child inherits. Without GNU time the figure is an upper bound
    that includes this benchmark's own peak.
    """
    with tempfile.TemporaryDirectory() as folder:
        out_path, err_path, rss_path = (os.path.join(folder, n) for n in ("out", "err", "rss"))
        argv = list(argv)
        if rss and GNU_TIME.exists():
            argv = [str(GNU_TIME), "-q", "-o", rss_path, "-f", "%M", *argv]
        actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_OPEN, 1, out_path, os.O_WRONLY | os.O_CREAT, 0o600),
                   (os.POSIX_SPAWN_OPEN, 2, err_path, os.O_WRONLY | os.O_CREAT, 0o600)]
        os.chdir(ROOT)
        started = time.monotonic()
        start = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, env(), file_actions=actions)
        deadline = start + timeout
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            if time.perf_counter() > deadline:
                os.kill(pid, 9)
                done, status, usage = os.wait4(pid, 0)
                break
            time.sleep(0.0005)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        peak = usage.ru_maxrss / 1024
        try:
            peak = int(Path(rss_path).read_text().split()[-1]) / 1024
        except (OSError, ValueError, IndexError):
            pass
        size = os.path.getsize(out_path)
        text = Path(err_path).read_text(encoding="utf-8", errors="replace")
    return Child(code, wall, usage.ru_utime + usage.ru_stime, peak, size, text, started)


def run_children(argv: Sequence[str], times: int, *, rss: bool = True) -> list[Child]:
    """``argv`` run ``times`` times; raises if one fails (a benchmark of a failing command says nothing)."""
    runs = []
    for _ in range(times):
        child = run_child(argv, rss=rss)
        if child.code != 0:
            raise RuntimeError(f"{' '.join(argv[1:])} exited {child.code}: {child.stderr.strip()[-2000:]}")
        runs.append(child)
    return runs


def checkout(ref: str, where: Path) -> Path:
    """The tree of git revision ``ref`` unpacked under ``where`` (``git archive``: exactly what that commit holds;
    the repository itself untouched), to run a benchmark's "before" from (first on its processes' path)."""
    import subprocess

    folder = where / f"before-{ref}"
    folder.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def pi_display(chip: str = "ssd1306"):
    """The Pi's own display path: the real driver (drivers.display.OledDisplay, luma's device and frame conversion)
    on a recording I2C bus (firmware_sim.display_sim.OledChip, which models 400 kHz). Returns (display, bus)."""
    from drivers.display import OledDisplay
    from firmware_sim.display_sim import OledChip

    bus = OledChip(chip)
    return OledDisplay(chip=chip, interface=bus), bus


# -- the core's benchmarks: one game to measure on, the best of a few runs -----------------------


def best_cpu(run: Callable[[], object], repeat: int) -> float:
    """The least CPU time (``time.process_time``) of ``repeat`` runs of ``run``: the machine is shared, the least
    is the figure other work disturbed least."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def four_players(settings=None):
    """A pure-core game (the us edition) with Alice, Bob, Cleo and Dan enrolled (card ids 1-4, UIDs A0-A3), then
    a new game with ``settings`` if given (the official rules else)."""
    from banker.fold.acts import enrolment, new_game
    from banker.fold.game import apply, replay
    from banker.journal.records import GameSettings
    from cards import load_edition

    game = replay([], editions={"us": load_edition("us")})
    game = apply(game, new_game(game, GameSettings()))
    for i, name in enumerate(("Alice", "Bob", "Cleo", "Dan")):
        game = apply(game, enrolment(game, name, f"A{i}"))
    return game if settings is None else apply(game, new_game(game, settings))
