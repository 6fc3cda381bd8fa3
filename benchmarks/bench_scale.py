"""Benchmark of costs against history: ledgers of 1k / 10k / 100k transactions (issue 11's Targets table).

For each size (all in one current game; the largest also spread over
``--games`` games for verify) it prints: opening the ledger as a whole
process (``python -c`` that opens it, and ``banker game list``) and in
this process; keypad undo (``FN C M`` through the one Shell, drawn on the
Pi's display path) and the core's undo; ``ledger verify`` rows/s;
``Ledger.restore_game`` of an early and of a late archived game on the
largest ledger spread over ``--games`` games;
``ledger show`` / ``export`` time and peak RSS (child processes, their own
rusage); ``banker run --backend hw-sim`` to its first frame; one frame of
the desktop simulator and its RSS over many frames; bytes written per
committed transaction (everything: WAL frames, checkpoints, backups); and
``banker --help`` against a bare ``python -c pass``. Each figure is printed
with the target beside it (ok/over), and CPU figures with the Pi Zero 2
estimate (CPU x14 central and x20 pessimistic, benchmarks/common.py).

Times are medians over ``--repeats`` runs (p95 and CPU beside them): the
machine is shared and noisy. Ledgers are built once per code version and
cached under /tmp (benchmarks/common.py).

    python benchmarks/bench_scale.py [--sizes 1000,10000,100000] [--games 200] [--repeats 5]
    python benchmarks/bench_scale.py --only verify    # one section (or several, comma-separated)
    python benchmarks/bench_scale.py --quick          # a few hundred rows: a smoke test, no verdicts worth reading
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sqlite3
import sys
import tempfile
from pathlib import Path

import common
import ledgers
from common import Report, median, percentile, run_children, timed, zero2

OPEN = "import sys; from runtime.ledger import open_ledger; open_ledger(sys.argv[1], writer=False).close()"
PLAIN = "pass"

# Targets of issue 11 (here, and scaled for a Pi Zero 2).
OPEN_RATIO = 1.5          # open 100k / open 1k, whole process
UNDO_RATIO = 1.5          # undo with 100k in the game / with 1k
VERIFY_ROWS_S = 150_000   # issue 19 (issue 11: 100,000)
EXPORT_RSS_MIB = 40.0
SIM_FRAME_MS = 2.0
FIRST_FRAME_S = 0.4
HELP_RATIO = 2.5
BYTES_PER_TX = 6 * 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000", help="transactions per ledger, comma-separated")
    parser.add_argument("--games", type=int, default=200, help="games the largest ledger is spread over for verify")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each timed thing (median, p95)")
    parser.add_argument("--undo-repeats", type=int, default=30, help="keypad undos timed at each size")
    parser.add_argument("--sim-frames", type=int, default=50, help="simulator frames timed at each size")
    parser.add_argument("--rss-frames", type=int, default=20_000, help="simulator frames over which RSS growth is read")
    parser.add_argument("--commits", type=int, default=2000, help="commits over which bytes per transaction are read")
    parser.add_argument("--skip", default="", help="sections to leave out, comma-separated: open,list,undo,verify,"
                                                  "restore,show,firstframe,sim,bytes,help")
    parser.add_argument("--only", default="", help="the only sections to run, comma-separated (same names as "
                                                  "--skip): e.g. --only verify")
    parser.add_argument("--quick", action="store_true", help="tiny ledgers, one run each: proves the benchmark runs")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.games, args.repeats = "200,400", 4, 1
        args.sim_frames, args.rss_frames, args.commits, args.undo_repeats = 2, 20, 20, 1
    sizes = [int(s) for s in args.sizes.split(",") if s]
    skip = set(args.skip.split(","))
    report = Report(f"bench_scale: sizes {', '.join(f'{s:,}' for s in sizes)} transactions, tree {common.ROOT}")
    report.note(f"code version {ledgers.code_version()}; repeats {args.repeats}; "
                f"Pi Zero 2 = CPU here x {common.ZERO2_CPU_FACTOR:g} (x{common.ZERO2_PESSIMISTIC_FACTOR:g} pessimistic)")
    paths = build(report, sizes, args.games)
    games_path = paths[("games", sizes[-1])]
    figures: dict[str, dict] = {}
    sections = [
        ("open", lambda: bench_open(report, paths, sizes, args.repeats)),
        ("list", lambda: bench_list(report, paths, sizes, args.repeats)),
        ("undo", lambda: bench_undo(report, sizes, args.undo_repeats)),
        ("verify", lambda: bench_verify(report, paths, sizes, games_path, args.games, args.repeats)),
        ("restore", lambda: bench_restore(report, sizes[-1], args.games, args.repeats)),
        ("show", lambda: bench_show(report, paths, sizes, args.repeats)),
        ("firstframe", lambda: bench_first_frame(report, sizes, args.repeats)),
        ("sim", lambda: bench_sim(report, paths, sizes, args.sim_frames, args.rss_frames)),
        ("bytes", lambda: bench_bytes(report, sizes[-1], args.commits)),
        ("help", lambda: bench_help(report, max(args.repeats * 2, 2))),
    ]
    only = {name for name in args.only.split(",") if name}
    for name, run in sections:
        if name not in skip and (not only or name in only):
            try:
                figures[name] = run()
            except Exception as exc:  # one broken section must not hide the others' figures
                report.note(f"{name}: FAILED: {type(exc).__name__}: {exc}")
    report.summary()


def build(report: Report, sizes: list[int], games: int) -> dict:
    report.section("ledgers (built once per code version, cached in " + str(common.CACHE) + ")")
    paths = {}
    for key in [("one", n) for n in sizes] + [("games", sizes[-1])]:
        count = games if key[0] == "games" else 1
        with timed() as t:
            paths[key] = ledgers.ledger_file(key[1], games=count)
        report.note(f"{key[1]:>7,} transactions in {count} game(s): {paths[key].stat().st_size / 1e6:.1f} MB "
                    f"(ready in {t.wall:.1f} s)")
    return paths


def _ratio_line(report: Report, name: str, values: dict[int, float], sizes: list[int], target: float) -> None:
    first, last = sizes[0], sizes[-1]
    report.figure(f"{name}: {last:,} / {first:,}", values[last] / values[first], "x", target=target)


def _children_line(report: Report, name: str, runs, *, rss_target: float | None = None) -> float:
    walls = [r.wall for r in runs]
    cpu = median([r.cpu for r in runs])
    report.figure(f"{name}: wall median", median(walls) * 1000, "ms")
    report.note(f"{'':<4}p95 {percentile(walls, 0.95) * 1000:.1f} ms, CPU {cpu * 1000:.1f} ms "
                f"(Pi Zero 2: {zero2(cpu):.2f} s, x{common.ZERO2_PESSIMISTIC_FACTOR:g}: {zero2(cpu, common.ZERO2_PESSIMISTIC_FACTOR):.2f} s), peak RSS {max(r.rss_mib for r in runs):.1f} MiB")
    if rss_target is not None:
        report.figure(f"{name}: peak RSS", max(r.rss_mib for r in runs), "MiB", target=rss_target)
    return median(walls)


def bench_open(report: Report, paths: dict, sizes: list[int], repeats: int) -> dict:
    report.section("open: a whole process that opens the ledger (python -c), and in this process")
    process, cpu = {}, {}
    for n in sizes:
        runs = run_children([sys.executable, "-c", OPEN, str(paths[("one", n)])], repeats)
        process[n] = _children_line(report, f"open {n:,}, process", runs)
        cpu[n] = median([r.cpu for r in runs])
        walls, cpus = [], []
        for _ in range(repeats):
            with timed() as t:
                ledgers.open_ledger_read(paths[("one", n)]).close()
            walls.append(t.wall)
            cpus.append(t.cpu)
        report.figure(f"open {n:,}, in this process: median", median(walls) * 1000, "ms")
        report.zero2(f"open {n:,} in process", median(cpus))
    _ratio_line(report, "open, whole process (wall)", process, sizes, OPEN_RATIO)
    _ratio_line(report, "open, whole process (CPU)", cpu, sizes, OPEN_RATIO)
    report.zero2(f"open {sizes[-1]:,}, whole process", cpu[sizes[-1]])
    return process


def bench_list(report: Report, paths: dict, sizes: list[int], repeats: int) -> dict:
    report.section("game list: banker game list (process) and Ledger.games() (in process)")
    process = {}
    for n in (sizes[0], sizes[-1]):
        runs = run_children(common.banker_argv("game", "list", "--db", str(paths[("one", n)])), repeats)
        process[n] = _children_line(report, f"banker game list {n:,}", runs)
    for key in (("one", sizes[-1]), ("games", sizes[-1])):
        with ledgers.open_ledger_read(paths[key]) as ledger:
            walls, cpus = common.repeat(ledger.games, repeats)
        report.figure(f"Ledger.games(), {key[1]:,} in {'1 game' if key[0] == 'one' else 'many games'}",
                      median(walls) * 1000, "ms")
    _ratio_line(report, "banker game list (wall)", process, [sizes[0], sizes[-1]], OPEN_RATIO)
    return process


def bench_undo(report: Report, sizes: list[int], repeats: int) -> dict:
    """FN C M on the keypad through the Shell and the Pi's display driver; and Ledger.undo()."""
    from banker.unit.events import KeyDown, KeyUp
    from runtime.shell import Shell

    report.section("undo: keypad FN C M (Shell, Pi display path, real fsync) and the core's Ledger.undo()")
    keypad, keypad_cpu, core = {}, {}, {}
    for n in sizes:
        with ledgers.ledger_copy(n) as path, ledgers.open_for_commits(path) as ledger:
            display, bus = common.pi_display()
            shell = Shell(ledger, display=display, sleep_after=1e9)
            ids = [c.id for c in ledger.game().cards]
            t = 1.0
            walls, cpus, core_walls, core_cpus = [], [], [], []
            for r in range(repeats + 1):  # the first run warms the caches up: not counted
                ledger.post(ledgers.transfer(r, ids))
                with timed() as tk:
                    for key in ("FN", "C", "M"):
                        t += 0.2
                        shell.handle(KeyDown(key, t))
                        shell.handle(KeyUp(key, t + 0.05))
                assert ledger.game().last.reverses is not None, shell.screen.lines
                ledger.post(ledgers.transfer(r + 1, ids))
                with timed() as tc:
                    ledger.undo()
                if r:
                    walls.append(tk.wall)
                    cpus.append(tk.cpu)
                    core_walls.append(tc.wall)
                    core_cpus.append(tc.cpu)
            display.close()
        keypad[n], keypad_cpu[n], core[n] = median(walls), median(cpus), median(core_walls)
        report.figure(f"keypad undo {n:,}: FN C M, wall median", keypad[n] * 1000, "ms")
        report.note(f"{'':<4}p95 {percentile(walls, 0.95) * 1000:.1f} ms, CPU {keypad_cpu[n] * 1000:.1f} ms")
        report.zero2(f"keypad undo {n:,} (+ real fsync here)", keypad_cpu[n], extra_seconds=max(0.0, keypad[n] - keypad_cpu[n]))
        report.figure(f"Ledger.undo() {n:,}: wall median", core[n] * 1000, "ms")
        report.note(f"{'':<4}CPU {median(core_cpus) * 1000:.1f} ms")
    _ratio_line(report, "keypad undo (wall)", keypad, sizes, UNDO_RATIO)
    _ratio_line(report, "keypad undo (CPU)", keypad_cpu, sizes, UNDO_RATIO)
    _ratio_line(report, "Ledger.undo() (wall)", core, sizes, UNDO_RATIO)
    return keypad


def bench_verify(report: Report, paths: dict, sizes: list[int], games_path: Path, games: int, repeats: int) -> dict:
    report.section(f"verify: Ledger.verify() in process; banker ledger verify on {sizes[-1]:,} in {games} games")
    report.note(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores: verify runs on every core, so its "
                "wall figures mean something only under a load well below the cores; read the CPU of each process")
    rates = {}
    cases = [(f"{n:,} in 1 game", paths[("one", n)], n) for n in sizes]
    cases.append((f"{sizes[-1]:,} in {games} games", games_path, sizes[-1]))
    for name, path, n in cases:
        with ledgers.open_ledger_read(path) as ledger:
            children = _children_cpu()
            walls, cpus = common.repeat(ledger.verify, max(1, min(repeats, 3)))
            second = (_children_cpu() - children) / len(cpus)  # the chain's half, in its own process
            audit = ledger.verify()
        if audit.problems:
            report.note(f"verify {name}: {len(audit.problems)} problem(s), first: {audit.problems[0]}")
        rows = audit.transactions or n
        rates[name] = rows / median(walls)
        report.figure(f"verify {name}: rows/s", rates[name], "rows/s", at_most=False,
                      target=VERIFY_ROWS_S if n == sizes[-1] else None)  # a small one is its fixed costs
        report.note(f"{'':<4}{median(walls):.2f} s for {rows:,} transactions, CPU {median(cpus):.2f} s "
                    f"(Pi Zero 2: {rows / zero2(median(cpus)):,.0f} rows/s, x{common.ZERO2_PESSIMISTIC_FACTOR:g}: {rows / zero2(median(cpus), common.ZERO2_PESSIMISTIC_FACTOR):,.0f})"
                    + (f"; second process's CPU {second:.2f} s (both {median(cpus) + second:.2f} s)" if second else ""))
    runs = run_children(common.banker_argv("ledger", "verify", "--db", str(games_path)), max(1, min(repeats, 3)))
    _children_line(report, f"banker ledger verify, {sizes[-1]:,} in {games} games", runs)
    return rates


def _children_cpu() -> float:
    """CPU seconds of this process's reaped children so far (verify's second process)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bench_restore(report: Report, n: int, games: int, repeats: int) -> dict:
    """``Ledger.restore_game`` on a fresh copy of the ``n`` ledger in ``games`` games each run (commit included)."""
    report.section(f"restore: Ledger.restore_game on {n:,} in {games} games (a fresh copy each run, its commit "
                   "included)")
    found = {}
    for name, target in (("the first game", 1), ("the game before the current", games - 1)):
        walls, cpus = [], []
        for _ in range(max(1, min(repeats, 3))):
            with ledgers.ledger_copy(n, games=games) as path, ledgers.open_for_commits(path) as ledger:
                with timed() as t:
                    ledger.restore_game(target)
                assert ledger.game().id == target
            walls.append(t.wall)
            cpus.append(t.cpu)
        found[target] = median(walls)
        report.figure(f"restore {name} (game {target}): wall median", found[target] * 1000, "ms")
        report.note(f"{'':<4}CPU {median(cpus) * 1000:.1f} ms (Pi Zero 2: {zero2(median(cpus)):.2f} s, x{common.ZERO2_PESSIMISTIC_FACTOR:g}: {zero2(median(cpus), common.ZERO2_PESSIMISTIC_FACTOR):.2f} s)")
    return found


def bench_show(report: Report, paths: dict, sizes: list[int], repeats: int) -> dict:
    report.section("show / export: child processes, their own time and peak RSS")
    rss = {}
    with tempfile.TemporaryDirectory() as folder:
        out = str(Path(folder) / "out")
        commands = {"ledger show": ("ledger", "show"),
                    "ledger export csv": ("ledger", "export", "--format", "csv", "-o", out),
                    "ledger export json": ("ledger", "export", "--format", "json", "-o", out)}
        for n in sizes:
            for name, words in commands.items():
                runs = run_children(common.banker_argv(*words, "--db", str(paths[("one", n)])), max(1, min(repeats, 3)))
                _children_line(report, f"{name} {n:,}", runs, rss_target=EXPORT_RSS_MIB if n == sizes[-1] else None)
                rss[(name, n)] = max(r.rss_mib for r in runs)
    return rss


def bench_first_frame(report: Report, sizes: list[int], repeats: int) -> dict:
    """``banker run --backend hw-sim`` from spawning to the first frame on the OLED (benchmarks/first_frame.py)."""
    report.section("banker run --backend hw-sim: process start to the first frame drawn")
    spy = str(Path(__file__).with_name("first_frame.py"))
    found = {}
    for n in (sizes[0], sizes[-1]):
        waits, cpus = [], []
        for _ in range(max(1, min(repeats, 3))):
            with ledgers.ledger_copy(n) as path:
                (child,) = run_children([sys.executable, spy, "run", "--backend", "hw-sim", "--seconds", "0.3",
                                         "--db", str(path)], 1, rss=False)
            stamp = [line.split()[1] for line in child.stderr.splitlines() if line.startswith("first-frame ")]
            if not stamp:
                raise RuntimeError(f"no frame was drawn: {child.stderr.strip()[-500:]}")
            waits.append(float(stamp[0]) - child.started)
            cpus.append(child.cpu)
        found[n] = median(waits)
        report.figure(f"hw-sim to first frame, {n:,} ledger: median", found[n], "s",
                      target=FIRST_FRAME_S if n == sizes[-1] else None)
        report.note(f"{'':<4}p95 {percentile(waits, 0.95):.3f} s; the whole run's CPU {median(cpus):.2f} s "
                    "(0.3 s of running included)")
    return found


def bench_sim(report: Report, paths: dict, sizes: list[int], frames: int, rss_frames: int) -> dict:
    """The desktop simulator's frame (firmware_sim.desktop.DesktopSim.frame, drawn headless) at each size.

    A drawn frame: a key ("1", then "C", in turn) reaches the unit and changes the OLED, so the window is
    drawn again (a simulator may skip drawing an idle frame: that is timed too, apart).
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from banker.unit.events import KeyDown, KeyUp
    from firmware_sim.desktop import DesktopSim

    report.section("simulator: one frame of the desktop window (a key in, the unit, the window drawn), headless")
    found = {}
    for n in sizes:
        with ledgers.open_ledger_read(paths[("one", n)]) as ledger, DesktopSim(ledger, sound=False) as sim:
            presses = iter(["1", "C"] * (frames + rss_frames + 2))

            def drawn(presses=presses) -> None:
                key, t = next(presses), sim.clock()
                sim.post([KeyDown(key, t), KeyUp(key, t + 0.01)])
                sim.frame()

            drawn()
            draws = getattr(sim, "draws", None)
            walls, cpus = common.repeat(drawn, frames)
            if draws is not None and sim.draws - draws < frames:
                report.note(f"only {sim.draws - draws} of {frames} frames were drawn")
            idle, _ = common.repeat(sim.frame, frames)
            if n == sizes[0] and rss_frames:
                gc.collect()
                rss = [common.rss_mib()]
                for half in (rss_frames // 2, rss_frames - rss_frames // 2):
                    for _ in range(half):
                        drawn()
                    gc.collect()
                    rss.append(common.rss_mib())
        found[n] = median(walls)
        report.figure(f"sim frame {n:,} (drawn): median", found[n] * 1000, "ms", target=SIM_FRAME_MS)
        report.note(f"{'':<4}p95 {percentile(walls, 0.95) * 1000:.2f} ms, CPU {median(cpus) * 1000:.2f} ms; "
                    f"an idle frame {median(idle) * 1000:.2f} ms")
    if rss_frames:
        report.figure(f"sim RSS growth over {rss_frames:,} drawn frames ({sizes[0]:,} ledger)", rss[2] - rss[0], "MiB")
        report.note(f"{'':<4}first half {rss[1] - rss[0]:+.2f} MiB, second half {rss[2] - rss[1]:+.2f} MiB "
                    f"(RSS {rss[0]:.1f} -> {rss[2]:.1f} MiB)")
        report.figure("sim RSS growth per frame", (rss[2] - rss[0]) * 1024 * 1024 / rss_frames, "bytes")
    return found


def bench_bytes(report: Report, n: int, commits: int) -> dict:
    """Bytes written per committed transaction, on a copy of the ``n`` ledger, as the unit opens it (backups on)."""
    report.section(f"bytes written per transaction: {commits:,} commits on the {n:,} ledger, backups on")
    with ledgers.ledger_copy(n) as path:
        wal = Path(str(path) + "-wal")
        with ledgers.open_for_commits(path, backups=True) as ledger:
            ids = [c.id for c in ledger.game().cards]
            for i in range(5):  # the WAL exists, the caches are warm
                ledger.post(ledgers.transfer(i, ids))
            page = _truncate_wal(path)
            frames_commits = min(commits, 200)
            for i in range(frames_commits):
                ledger.post(ledgers.transfer(i, ids))
            frames = (wal.stat().st_size - 32) / (24 + page) if wal.exists() and wal.stat().st_size else 0
            before = common.written_bytes()
            with timed() as t:
                for i in range(commits):
                    ledger.post(ledgers.transfer(i, ids))
            written = common.written_bytes() - before
    per_tx = written / commits
    report.figure("bytes written per transaction (write() bytes: WAL, checkpoints, backups)", per_tx, "bytes",
                  target=BYTES_PER_TX)
    report.figure(f"WAL frames per commit (page {page} bytes, over {frames_commits} commits)",
                  frames / frames_commits, "frames", target=1.0)
    report.note(f"{'':<4}{commits / t.wall:.0f} durable commits/s here (real fsync), CPU {t.cpu / commits * 1000:.2f} ms each")
    return {"bytes": per_tx, "frames": frames / frames_commits}


def _truncate_wal(path: Path) -> int:
    """Fold the WAL into the file and cut it to nothing (from a second connection); the page size."""
    conn = sqlite3.connect(path, timeout=5)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return conn.execute("PRAGMA page_size").fetchone()[0]
    finally:
        conn.close()


def bench_help(report: Report, repeats: int) -> dict:
    report.section("banker --help against a bare python -c pass (child processes, interleaved)")
    bare, helps = [], []
    for _ in range(repeats):
        bare += run_children([sys.executable, "-c", PLAIN], 1, rss=False)
        helps += run_children(common.banker_argv("--help"), 1, rss=False)
    plain_wall, help_wall = median([r.wall for r in bare]), median([r.wall for r in helps])
    report.figure("python -c pass: wall median", plain_wall * 1000, "ms")
    report.figure("banker --help: wall median", help_wall * 1000, "ms")
    report.figure("banker --help / python -c pass (wall)", help_wall / plain_wall, "x", target=HELP_RATIO)
    report.figure("banker --help / python -c pass (CPU)", median([r.cpu for r in helps]) / median([r.cpu for r in bare]),
                  "x", target=HELP_RATIO)
    report.zero2("banker --help", median([r.cpu for r in helps]))
    return {"ratio": help_wall / plain_wall}


if __name__ == "__main__":
    main()
