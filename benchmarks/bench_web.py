"""Benchmark of the table page: memory it adds with 10 pages open, page weight, the unit's key-to-frame latency.

The unit here is the one shell over a ledger file with the demo game (four
players, deeds, houses), drawing every frame with the real renderer. A key
goes down every 50 ms (a very fast player; ``--pace 0`` presses them flat
out, the worst case): cards on both readers, ``1 K`` (a 1K transfer,
committed), cards away. The latency of a key is from the
event entering :meth:`runtime.shell.Shell.handle` to its frame rendered.
It is measured in three conditions, interleaved over rounds so that the
machine's own load falls on all alike: no page server; the server running
in its thread beside the unit with no page open; and with 10 pages (event
streams, from another process, as phones would be) following every commit.
The p95 change is between the medians of the rounds' p95s (0 vs 10 pages). Memory is the unit's process
RSS before the server (and aiohttp) is imported and with the 10 pages
connected. Page weight is the page itself (HTML, CSS, script, one
document) and the state it then receives. Prints JSON.

``--first-page`` measures instead the time ``banker web`` takes from its
process start to its first page (the first 200 answer to ``GET /``, the
address taken from its first line) on ledgers of 1,000, 10,000 and 100,000
transactions (:mod:`ledgers`, one game), the median of ``--repeat`` runs,
with the child's CPU time to that moment and the Pi Zero 2 estimate. The
target is 0.5 s at any size (issue 19), with CPU of at most 0.35 s here.
The tree is byte-compiled first, as an installed package is (pip compiles
it; a start that compiled every module from its source would measure
that instead, about 0.08 s here), and the load average is printed beside
the figures: the wall time is the machine's as much as the program's.

    python benchmarks/bench_web.py [--cycles 50] [--rounds 5] [--pace 0.05] [--quick]
    python benchmarks/bench_web.py --first-page [--sizes 1000,10000,100000] [--repeat 5] [--against TREE]

``--against TREE`` times another copy of the project (an earlier commit's
worktree) too, one run of each in turn on the same ledgers, so that a
before-and-after comparison on a shared machine is fair; that copy must
read this tree's ledgers.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(1, str(ROOT))

try:  # the Pi Zero 2 factors of the benchmarks, where they are defined
    from common import ZERO2_CPU_FACTOR, ZERO2_PESSIMISTIC_FACTOR
except ImportError:  # pragma: no cover
    ZERO2_CPU_FACTOR, ZERO2_PESSIMISTIC_FACTOR = 14.0, 20.0

from banker.unit.events import CardPlaced, CardRemoved, KeyDown, KeyUp  # noqa: E402
from render import render_image  # noqa: E402
from runtime.ledger import SqliteLedger  # noqa: E402
from runtime.shell import Shell  # noqa: E402

PAGES = 10

#: A process that holds ``PAGES`` event streams open and reads every event, like phones on the table.
CLIENTS = r"""
import socket, sys, threading
port, token, count = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
ready = threading.Barrier(count + 1)
def follow():
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET /?t={token} HTTP/1.1\r\nHost: unit\r\nConnection: keep-alive\r\n\r\n".encode())
    page = b""
    while b"</html>" not in page:
        page += s.recv(65536)
    s.sendall(f"GET /api/events?t={token} HTTP/1.1\r\nHost: unit\r\nAccept: text/event-stream\r\n\r\n".encode())
    seen = b""
    while b"event: state" not in seen:
        seen += s.recv(65536)
    ready.wait()
    while s.recv(65536):
        pass
for _ in range(count):
    threading.Thread(target=follow, daemon=True).start()
ready.wait()
print("ready", flush=True)
sys.stdin.read()
"""


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


class FrameDisplay:
    """A display that renders every frame (the renderer's work, as on the device) and keeps it."""

    def __init__(self) -> None:
        self.frames = 0

    def show(self, screen) -> None:
        render_image(screen).tobytes()
        self.frames += 1

    def power(self, on: bool) -> None:
        pass


def key_latencies(shell: Shell, cycles: int, pace: float) -> tuple[list[float], list[float]]:
    """(every key's latency, the committing keys' latency) in seconds, over ``cycles`` payments.

    A key goes down every ``pace`` seconds (0: as fast as the shell takes them).
    """
    game = shell.ledger.game()
    alice, bob = game.card_by_name("Alice"), game.card_by_name("Bob")
    keys, commits, t = [], [], 1000.0
    due = time.perf_counter()
    for cycle in range(cycles):
        plus, minus = (alice, bob) if cycle % 2 else (bob, alice)
        for event in (CardPlaced("left", plus.uid, t), CardPlaced("right", minus.uid, t + 0.01)):
            shell.handle(event)
        for key in ("1", "K"):
            t += 0.05
            due += pace
            time.sleep(max(0.0, due - time.perf_counter()))
            started = time.perf_counter()
            shell.handle(KeyDown(key, t))
            elapsed = time.perf_counter() - started
            keys.append(elapsed)
            if key == "K":
                commits.append(elapsed)
            shell.handle(KeyUp(key, t + 0.02))
        t += 0.05
        shell.handle(CardRemoved("left", t))
        shell.handle(CardRemoved("right", t + 0.01))
        t += 0.1
    return keys, commits


def figures(values: list[float]) -> dict:
    ordered = sorted(values)
    ms = lambda s: round(s * 1000, 3)  # noqa: E731
    return {"p50_ms": ms(statistics.median(ordered)), "p95_ms": ms(ordered[int(len(ordered) * 0.95)]),
            "max_ms": ms(ordered[-1])}


#: Seconds from ``banker web``'s start to its first page, at any ledger size (issue 19).
FIRST_PAGE_TARGET_S = 0.5
#: CPU seconds of ``banker web`` to its first page here: the wall target's margin on a loaded machine.
FIRST_PAGE_CPU_TARGET_S = 0.35
#: The tree's packages that ``banker web`` imports, byte-compiled before it is timed.
PACKAGES = ("banker", "banker_cli", "cards", "render", "runtime", "store", "web")
#: Straight to the local server, whatever proxy the environment names.
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def child_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (/proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def first_page(path: Path, tree: Path = ROOT) -> tuple[float, float]:
    """(wall seconds, CPU seconds) from starting ``banker web`` of ``tree`` on ``path`` to its first 200 answer to
    the page."""
    from common import banker_argv, env

    argv = banker_argv("web", "--db", str(path), "--host", "127.0.0.1", "--port", "0")
    environ = env()
    environ["PYTHONPATH"] = environ["PYTHONPATH"].replace(str(ROOT), str(tree), 1)  # that tree's packages first
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environ, cwd=tree)
    try:
        url = child.stdout.readline().strip()
        if not url.startswith("http"):
            raise RuntimeError(f"banker web printed {url!r}: {child.stderr.read()[-2000:]}")
        while True:
            try:
                with NO_PROXY.open(url, timeout=30) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                time.sleep(0.005)
        wall = time.perf_counter() - started
        cpu = child_cpu_seconds(child.pid)
    finally:
        child.terminate()
        child.communicate(timeout=30)
    return wall, cpu


def byte_compile(tree: Path = ROOT) -> None:
    """Compile the tree's packages to bytecode (``__pycache__``), as installing them does."""
    import compileall

    for package in PACKAGES:
        compileall.compile_dir(tree / package, quiet=1)


def load_average() -> str:
    return " ".join(f"{n:.1f}" for n in os.getloadavg())


def first_page_main(sizes: list[int], repeat: int, against: Path | None = None) -> None:
    import ledgers
    from common import Report

    report = Report("banker web: process start to first page")
    for tree in (ROOT, against) if against is not None else (ROOT,):
        byte_compile(tree)
    report.note(f"the tree byte-compiled; load average {load_average()} (1, 5, 15 min) on {os.cpu_count()} CPUs")
    for size in sizes:
        path = ledgers.ledger_file(size, progress=True)
        runs, others = [], []
        for _ in range(repeat):  # with --against, one run of each in turn: the machine's load falls on both alike
            runs.append(first_page(path))
            if against is not None:
                others.append(first_page(path, against))
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        report.figure(f"{size:,} transactions: time to first page (median of {repeat})", wall, "s",
                      target=FIRST_PAGE_TARGET_S)
        report.figure(f"{size:,} transactions: CPU of banker web to first page", cpu, "s",
                      target=FIRST_PAGE_CPU_TARGET_S)
        for factor in (ZERO2_CPU_FACTOR, ZERO2_PESSIMISTIC_FACTOR):
            report.figure(f"{size:,} transactions: Pi Zero 2 estimate (CPU x{factor:g})", cpu * factor, "s")
        if others:
            report.figure(f"{size:,} transactions, --against: time to first page", statistics.median(
                w for w, _ in others), "s")
            report.figure(f"{size:,} transactions, --against: CPU to first page", statistics.median(
                c for _, c in others), "s")
    report.note(f"load average {load_average()} at the end")
    report.summary()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=50, help="payments (two keys each) per block")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the three blocks, interleaved")
    parser.add_argument("--pace", type=float, default=0.05,
                        help="seconds between keys: 0.05 is a very fast player (0: flat out, the worst case)")
    parser.add_argument("--quick", action="store_true", help="a short run that checks the benchmark works")
    parser.add_argument("--first-page", action="store_true",
                        help="only the time from banker web's start to its first page, at each of --sizes")
    parser.add_argument("--sizes", default="1000,10000,100000", help="ledger sizes (transactions) for --first-page")
    parser.add_argument("--repeat", type=int, default=5, help="runs per size for --first-page (the median is shown)")
    parser.add_argument("--against", type=Path, metavar="TREE",
                        help="with --first-page, also time the banker web of another copy of the project (e.g. "
                             "`git worktree add /tmp/main main`), one run of each in turn")
    args = parser.parse_args()
    if args.first_page:
        first_page_main([int(n) for n in args.sizes.split(",")], args.repeat,
                        args.against.resolve() if args.against else None)
        return
    if args.quick:
        args.cycles, args.rounds, args.pace = 10, 1, 0.0
    folder = tempfile.mkdtemp(prefix="bench-web-")
    path = Path(folder) / "ledger.db"
    from web.demo import play_demo  # the demo only: no server imported yet

    samples = {"no_server": ([], []), "server_0_pages": ([], []), "server_10_pages": ([], [])}

    rounds: dict[str, list[float]] = {name: [] for name in samples}

    def block(name: str) -> None:
        keys, commits = key_latencies(shell, args.cycles, args.pace)
        samples[name][0].extend(keys)
        samples[name][1].extend(commits)
        rounds[name].append(figures(keys)["p95_ms"])

    with SqliteLedger(path, backups=False) as ledger:
        play_demo(ledger)
        shell = Shell(ledger, display=FrameDisplay(), sleep_after=1e9, now=1000.0)
        key_latencies(shell, 20, 0.0)  # warm up
        assert "aiohttp" not in sys.modules
        rss_before = rss_kib()
        from web import serve_in_background

        memory = None
        for _ in range(args.rounds):
            block("no_server")
            page = serve_in_background(ledger, host="127.0.0.1", port=0)
            try:
                block("server_0_pages")
                token = page.url.split("t=")[1]
                clients = subprocess.Popen([sys.executable, "-c", CLIENTS, str(page.port), token, str(PAGES)],
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                try:
                    assert clients.stdout.readline().strip() == "ready"
                    while len(page.server.hub.streams) < PAGES:
                        time.sleep(0.01)
                    if memory is None:
                        rss_connected = rss_kib()
                        cpu0, wall0 = time.process_time(), time.monotonic()
                        time.sleep(3.0)
                        idle_cpu = (time.process_time() - cpu0) / (time.monotonic() - wall0)
                    block("server_10_pages")
                    assert len(page.server.hub.streams) == PAGES
                    if memory is None:
                        rss_after = rss_kib()
                        added = (max(rss_connected, rss_after) - rss_before) / 1024
                        memory = {"rss_before_server_kib": rss_before, "rss_10_pages_kib": rss_connected,
                                  "rss_10_pages_after_commits_kib": rss_after, "added_by_server_mib": round(added, 1),
                                  "target_added_le_30_mib": added <= 30}
                        state = page.server._state.body
                        weight = {"page_bytes": len(page.server.page.body),
                                  "page_gzip_bytes": len(gzip.compress(page.server.page.body)),
                                  "state_bytes": len(state), "state_gzip_bytes": len(gzip.compress(state)),
                                  "page_plus_state_bytes": len(page.server.page.body) + len(state)}
                finally:
                    clients.stdin.close()
                    clients.wait(timeout=10)
            finally:
                page.close()
    keys = {name: figures(k) for name, (k, _) in samples.items()}
    commits = {name: figures(c) for name, (_, c) in samples.items()}
    per_round = {name: {"each_round": ps, "median": round(statistics.median(ps), 3)} for name, ps in rounds.items()}
    change = round(per_round["server_10_pages"]["median"] - per_round["server_0_pages"]["median"], 3)
    result = {
        "pages": PAGES,
        "memory": memory,
        "page_weight": {**weight, "target_page_lt_100_kb": weight["page_plus_state_bytes"] < 100_000},
        "server_idle_cpu_percent_10_pages": round(idle_cpu * 100, 2),
        "server_idle_cpu_percent_zero2_estimate": round(idle_cpu * 100 * ZERO2_CPU_FACTOR, 1),
        "server_idle_cpu_percent_zero2_pessimistic": round(idle_cpu * 100 * ZERO2_PESSIMISTIC_FACTOR, 1),
        "key_to_frame": {
            "keys_per_condition": len(samples["no_server"][0]), "seconds_between_keys": args.pace,
            "every_key": keys, "committing_key": commits, "every_key_p95_ms_by_round": per_round,
            "p95_change_0_to_10_pages_ms": change,
            "zero2_estimate_p95_ms": {name: round(f["p95_ms"] * ZERO2_CPU_FACTOR, 1) for name, f in keys.items()},
            "zero2_pessimistic_p95_ms": {name: round(f["p95_ms"] * ZERO2_PESSIMISTIC_FACTOR, 1)
                                         for name, f in keys.items()},
        },
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
