"""Benchmark of start-up: each everyday ``banker`` command, and the unit's process start to its first frame (issue 33).

Every command runs in a fresh child process, ``--repeats`` times (median of
the child's own CPU, user + system from ``wait4``, and of its wall time),
and is scaled to a Pi Zero 2 at CPU x14 and x20 (benchmarks/common.py).
Targets at x14 (issue 33, part 4): ``banker --help`` <= 0.4 s, a
one-payment keypad script <= 1 s, ``banker run --backend hw-sim`` from
process start to its first frame <= 3 s. The first frame's wall time less
its CPU is added unscaled (the modelled I2C bus and the waits a Pi spends
idle); its CPU is the process's own at that moment (benchmarks/first_frame.py).

**Before and after in one run.** ``before`` is a checkout of a git ref
(``--before REF``, default :data:`BEFORE_REF`, the commit this work started
from) unpacked with ``git archive`` under /tmp; ``after`` is this tree. Both
run in turn, one run of each per round, with the same Python, the same venv
(and its editable-install finder in ``site``), the same ledgers and a warm-up
run first that writes each tree's ``.pyc`` (``$PYTHONDONTWRITEBYTECODE`` is
dropped for the children: an installed package has its bytecode compiled by
pip). ``--installed`` adds a third column: this tree built as a wheel and
installed (not editable) into a fresh venv, as deploy/install.sh installs the
unit, its dependencies taken from this venv through a ``.pth`` line. A last
section measures the floor: ``python -c pass``, ``python -S -c pass`` (no
``site``), ``import click``, and two commands run from a copy of this tree
with no ``.pyc`` of its own (what a checkout pays at every start where
``PYTHONDONTWRITEBYTECODE`` is set, as on this machine).

For each command and tree it prints which of the heavy parts it imported:
web/, drivers/, firmware_sim/ (and which modules), render/, tkinter, pygame,
luma, gpiozero, serial, PIL, aiohttp.

    python benchmarks/bench_startup.py [--repeats 7] [--before REF] [--installed] [--quick]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import common
from common import Report, median

#: The commit this work started from (the branch point of issue 33's start-up work): the default "before".
BEFORE_REF = common.BEFORE_ISSUE33
HELP_MS, SCRIPT_MS, FIRST_FRAME_MS = 400.0, 1000.0, 3000.0  # targets at x14 (issue 33, part 4)
#: A one-payment keypad script (docs/keypad.md's format): a card enrolled and placed, one payment, one expect.
ONE_PAYMENT = "enrol Alice\ninsert left Alice\npress 1 . 5 M\nexpect balance Alice 16.5M\n"
#: What ``banker`` on the PATH runs (the console script: banker_cli.entry:main since issue 33, banker_cli.main:cli in
#: a tree before it), and the same leaving the modules it loaded.
#: (The venv's editable finder would find this tree's banker_cli.entry for a tree without one: which entry a tree
#: has is read off its files, not tried.)
LAUNCH = "import sys; from banker_cli.entry import main; sys.argv[0] = 'banker'; sys.exit(main())"
LAUNCH_BEFORE = "import sys; from banker_cli.main import cli; sys.argv[0] = 'banker'; sys.exit(cli())"
MODULES_AT_EXIT = ("import atexit, os, sys\n"
                   "atexit.register(lambda: open(os.environ['BENCH_MODULES'], 'w').write('\\n'.join(sys.modules)))\n")
#: The same, timing where its CPU goes: to its first line (the interpreter and site), click (with inspect, which the
#: dataclasses module imports too), banker_cli.main, the
#: classes ``@dataclass`` builds (by package), and the whole; printed as one line at exit.
WHERE = """import os, sys, time
start = time.process_time()
import dataclasses
build, spent = dataclasses._process_class, {}
def timed(cls, *args, **options):
    t = time.process_time()
    try:
        return build(cls, *args, **options)
    finally:
        parts = cls.__module__.split('.')
        key = '.'.join(parts[:2]) if parts[0] == 'banker' else parts[0]
        spent[key] = spent.get(key, 0.0) + time.process_time() - t
dataclasses._process_class = timed
import click
clicked = time.process_time()
from banker_cli.main import cli
mained = time.process_time()
def said():
    with open(os.environ['BENCH_WHERE'], 'w') as out:
        out.write(repr({'site': start, 'click': clicked - start, 'main': mained - clicked, 'dataclasses': spent,
                        'total': time.process_time()}))
import atexit
atexit.register(said)
sys.argv[0] = 'banker'
sys.exit(cli())
"""
#: What a copy of this tree leaves out (to build a wheel from, or to start with no .pyc).
SKIPPED = shutil.ignore_patterns(".git", ".venv", "build", "dist", "node_modules", "__pycache__", "*.egg-info")
#: The heavy parts a command should import only when it needs them: (label, module prefix).
HEAVY = (("web/", "web"), ("drivers/", "drivers"), ("firmware_sim/", "firmware_sim"), ("render/", "render"),
         ("tkinter", "tkinter"), ("pygame", "pygame"), ("luma", "luma"), ("gpiozero", "gpiozero"),
         ("serial", "serial"), ("PIL", "PIL"), ("aiohttp", "aiohttp"))


@dataclass
class Tree:
    """One copy of the project to time: its label, the ``PYTHONPATH`` it runs from and how ``banker`` starts."""

    label: str
    path: Path | None  # None: the installed wheel (no PYTHONPATH)
    python: str

    def banker(self, *args: str, probe: bool = False) -> list[str]:
        launch = LAUNCH if self.path is None or (self.path / "banker_cli" / "entry.py").exists() else LAUNCH_BEFORE
        return [self.python, "-c", MODULES_AT_EXIT + launch if probe else launch, *args]

    def env(self, **extra: str) -> dict[str, str]:
        environ = common.env()
        environ.pop("PYTHONDONTWRITEBYTECODE", None)
        if self.path is None:
            environ.pop("PYTHONPATH", None)
        else:
            environ["PYTHONPATH"] = str(self.path)
        environ.update(extra)
        return environ


@dataclass
class Run:
    cpu: float
    wall: float
    frame_cpu: float | None = None
    frame_wall: float | None = None


def spawn(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[Run, str]:
    """Run ``argv`` to its end: its own CPU and wall (``wait4``), and its stderr. Raises if it fails."""
    with tempfile.TemporaryFile() as err:
        started = time.monotonic()
        start = time.perf_counter()
        child = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    if child.returncode != 0:
        raise RuntimeError(f"{' '.join(argv[3:])} exited {child.returncode}: {text.strip()[-1500:]}")
    run = Run(usage.ru_utime + usage.ru_stime, wall)
    stamp = [line.split() for line in text.splitlines() if line.startswith("first-frame ")]
    if stamp:
        run.frame_wall = float(stamp[0][1]) - started
        run.frame_cpu = float(stamp[0][3]) if len(stamp[0]) > 3 else None
    return run, text


@dataclass
class Command:
    """One command to time: its name, its arguments (``{db}``, ``{fresh}``, ``{script}`` filled in) and target."""

    name: str
    short: str  # how its Zero 2 lines and verdicts are named
    args: tuple[str, ...]
    target_ms: float | None = None
    first_frame: bool = False


COMMANDS = (
    Command("banker --help", "--help", ("--help",), HELP_MS),
    Command("banker script (one payment, in memory)", "script", ("script", "{script}"), SCRIPT_MS),
    Command("banker script --db (one payment, a new ledger)", "script --db", ("script", "--db", "{fresh}",
                                                                              "{script}"), SCRIPT_MS),
    Command("banker ledger verify", "verify", ("ledger", "verify", "--db", "{db}")),
    Command("banker game list", "game list", ("game", "list", "--db", "{db}")),
    Command("banker game new", "game new", ("game", "new", "--db", "{copy}")),
    Command("banker cards list", "cards list", ("cards", "list", "--db", "{db}")),
    Command("banker deeds list", "deeds list", ("deeds", "list")),
    Command("banker run --backend hw-sim: process start to the first frame", "first frame",
            ("run", "--backend", "hw-sim", "--seconds", "0.3", "--db", "{copy}"), FIRST_FRAME_MS, first_frame=True),
)


class Bench:
    """The commands over the trees, interleaved round by round, in a scratch folder with its own ledgers."""

    def __init__(self, trees: list[Tree], work: Path) -> None:
        self.trees, self.work = trees, work
        self.script = work / "one-payment.kps"
        self.script.write_text(ONE_PAYMENT, encoding="utf-8")
        self.db, self.copies = work / "game.db", 0
        self.play(self.db)

    def play(self, db: Path) -> None:
        """The one-payment script played onto a new ledger at ``db`` (untimed: a game to read or to change)."""
        after = next(t for t in self.trees if t.label == "after")
        spawn(after.banker("script", "--db", str(db), str(self.script)), after.env(), self.work)

    def argv(self, tree: Tree, command: Command, *, probe: bool = False) -> list[str]:
        fresh = self.work / "fresh.db"
        for path in self.work.glob("fresh.db*"):
            path.unlink()
        copy = self.work / f"copy-{self.copies}.db"
        if "{copy}" in command.args:  # a new ledger of the same game each time (a copy would be behind its anchor)
            self.copies += 1
            copy = self.work / f"copy-{self.copies}.db"
            self.play(copy)
        args = [a.format(db=self.db, fresh=fresh, copy=copy, script=self.script) for a in command.args]
        if command.first_frame and not probe:
            return [tree.python, str(Path(__file__).with_name("first_frame.py")), *args]
        return tree.banker(*args, probe=probe)

    def time(self, command: Command, repeats: int) -> dict[str, list[Run]]:
        for tree in self.trees:  # warm-up: each tree's .pyc written, the caches of the disk filled
            spawn(self.argv(tree, command), tree.env(), self.work)
        runs: dict[str, list[Run]] = {t.label: [] for t in self.trees}
        for _ in range(repeats):
            for tree in self.trees:
                runs[tree.label].append(spawn(self.argv(tree, command), tree.env(), self.work)[0])
        return runs

    def imports(self, tree: Tree, command: Command) -> str:
        """Which heavy parts ``command`` imported on ``tree`` (a run that writes its ``sys.modules`` at exit)."""
        out = self.work / "modules.txt"
        out.unlink(missing_ok=True)
        spawn(self.argv(tree, command, probe=True), tree.env(BENCH_MODULES=str(out)), self.work)
        return heavy_imports(out.read_text().split())


def heavy_imports(modules: list[str]) -> str:
    """``web/, firmware_sim/ (memory_store)`` or ``none``: the heavy parts among ``modules``."""
    found = []
    for label, prefix in HEAVY:
        inside = sorted(m[len(prefix) + 1:] for m in modules if m.startswith(prefix + "."))
        if prefix in modules or inside:
            shown = ", ".join(inside[:4]) + (", ..." if len(inside) > 4 else "")
            found.append(f"{label} ({shown})" if inside and label.endswith("/") else label)
    return "; ".join(found) or "none"


def report_command(report: Report, bench: Bench, command: Command, repeats: int) -> None:
    report.section(command.name)
    runs = bench.time(command, repeats)
    for tree in bench.trees:
        mine = runs[tree.label]
        if command.first_frame:
            cpu = median([r.frame_cpu for r in mine])
            wall = median([r.frame_wall for r in mine])
            report.figure(f"{tree.label}: CPU here to the first frame (median)", cpu * 1000, "ms")
            report.figure(f"{tree.label}: wall here to the first frame (median)", wall * 1000, "ms")
        else:
            cpu, wall = median([r.cpu for r in mine]), median([r.wall for r in mine])
            report.figure(f"{tree.label}: CPU here (median)", cpu * 1000, "ms")
            report.figure(f"{tree.label}: wall here (median)", wall * 1000, "ms")
        waits = max(0.0, wall - cpu) if command.first_frame else 0.0
        report.zero2(f"{command.short}, {tree.label}", cpu, extra_seconds=waits, target_ms=command.target_ms)
    for tree in bench.trees:
        report.note(f"{tree.label} imports: {bench.imports(tree, command)}")


def where_it_goes(report: Report, bench: Bench, tree: Tree, repeats: int) -> None:
    """Where the CPU of a command goes on ``tree``: the interpreter's start, click, the classes ``@dataclass``
    builds at import (the core's many frozen records), and the rest (the medians of ``repeats`` runs)."""
    report.section(f"where the CPU goes ({tree.label}; a probe that times the classes @dataclass builds)")
    out = bench.work / "where.txt"
    for command in (c for c in COMMANDS if c.short in ("--help", "script", "verify")):
        found = []
        for _ in range(repeats):
            argv = bench.argv(tree, command)
            argv[2] = WHERE
            spawn(argv, tree.env(BENCH_WHERE=str(out)), bench.work)
            found.append(eval(out.read_text(), {}))  # noqa: S307 - a dict this benchmark's own probe wrote
        site, click_, main_ = (median([f[k] for f in found]) * 1000 for k in ("site", "click", "main"))
        total = median([f["total"] for f in found]) * 1000
        packages = {k for f in found for k in f["dataclasses"]}
        classes = {k: median([f["dataclasses"].get(k, 0.0) for f in found]) * 1000 for k in packages}
        shown = ", ".join(f"{k} {v:.1f}" for k, v in sorted(classes.items(), key=lambda kv: -kv[1]) if v >= 0.5)
        report.note(f"{command.short}: {total:.0f} ms CPU = interpreter and site {site:.1f} + click and inspect {click_:.1f} + "
                    f"banker_cli.main {main_:.1f} + @dataclass {sum(classes.values()):.1f} ({shown or 'none'}) "
                    f"+ the rest {total - site - click_ - main_ - sum(classes.values()):.1f}")


def installed(where: Path) -> Tree:
    """This tree as a wheel installed (not editable, bytecode compiled by pip) in a fresh venv: the unit's install."""
    venv, wheels, source = where / "venv", where / "wheels", where / "source"
    shutil.copytree(common.ROOT, source, ignore=SKIPPED)  # the build writes build/ and egg-info: not into this tree
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(wheels), str(source)],
                   check=True, capture_output=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    (wheel,) = wheels.glob("*.whl")
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--disable-pip-version-check",
                    str(wheel)], check=True, capture_output=True)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                          check=True, capture_output=True, text=True).stdout.strip()
    deps = subprocess.run([sys.executable, "-c", "import click, os; print(os.path.dirname(os.path.dirname("
                           "click.__file__)))"], check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "zz_bench_deps.pth").write_text(deps + "\n")  # after the package itself: its dependencies
    return Tree("installed wheel", None, str(python))


def floor(report: Report, trees: list[Tree], bench: Bench, repeats: int) -> None:
    """What no change to this project can take away: the interpreter's start, ``site``, click; and no .pyc."""
    report.section("the floor: the interpreter and click alone (this venv unless named)")
    after = next(t for t in trees if t.label == "after")
    cases = [("python -c pass", [sys.executable, "-c", "pass"], after),
             ("python -S -c pass (no site: no .pth files, no editable finder)", [sys.executable, "-S", "-c", "pass"],
              after),
             ("python -c 'import click'", [sys.executable, "-c", "import click"], after)]
    for tree in trees:
        if tree.path is None:
            cases.append(("installed venv: python -c pass", [tree.python, "-c", "pass"], tree))
            cases.append(("installed venv: python -c 'import click'", [tree.python, "-c", "import click"], tree))
    for name, argv, tree in cases:
        runs = [spawn(argv, tree.env(), bench.work)[0] for _ in range(repeats)]
        cpu = median([r.cpu for r in runs])
        report.figure(f"{name}: CPU here (median)", cpu * 1000, "ms")
        report.zero2(name, cpu)
    report.section("after, its own modules with no .pyc (a copy of this tree, PYTHONDONTWRITEBYTECODE=1, as this "
                   "machine's shell sets it); the stdlib's and the venv's .pyc kept")
    copy = Tree("after, no .pyc", bench.work.parent / "no-pyc", sys.executable)
    shutil.copytree(common.ROOT, copy.path, ignore=SKIPPED)
    for command in COMMANDS[:2]:
        env = copy.env(PYTHONDONTWRITEBYTECODE="1")
        runs = [spawn(bench.argv(copy, command), env, bench.work)[0] for _ in range(repeats)]
        cpu = median([r.cpu for r in runs])
        report.figure(f"{command.name}, no .pyc: CPU here (median)", cpu * 1000, "ms")
        report.zero2(f"{command.short}, no .pyc", cpu, target_ms=command.target_ms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="timed runs of each command in each tree (median)")
    parser.add_argument("--before", default=BEFORE_REF, help="the git ref timed as 'before' (default: %(default)s)")
    parser.add_argument("--installed", action="store_true", help="also time this tree installed from a wheel")
    parser.add_argument("--only", default="", help="time only the commands whose name holds this text")
    parser.add_argument("--quick", action="store_true", help="one run of each: proves the benchmark runs")
    args = parser.parse_args()
    repeats = 1 if args.quick else args.repeats
    report = Report(f"bench_startup: before = {args.before}, after = {common.ROOT}")
    report.note(f"{repeats} run(s) of each command per tree, interleaved; Pi Zero 2 = CPU here x "
                f"{common.ZERO2_CPU_FACTOR:g} (x{common.ZERO2_PESSIMISTIC_FACTOR:g} pessimistic); load average "
                f"{os.getloadavg()[0]:.2f} at the start")
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as folder:
        where = Path(folder)
        trees = [Tree(f"before ({args.before})", common.checkout(args.before, where), sys.executable),
                 Tree("after", common.ROOT, sys.executable)]
        if args.installed:
            trees.append(installed(where))
        (where / "work").mkdir()
        bench = Bench(trees, where / "work")
        for command in COMMANDS:
            if args.only in command.name:
                report_command(report, bench, command, repeats)
        if not args.only:
            where_it_goes(report, bench, trees[1], repeats)
            floor(report, trees, bench, repeats)
    report.note(f"load average {os.getloadavg()[0]:.2f} at the end")
    report.summary()


if __name__ == "__main__":
    main()
