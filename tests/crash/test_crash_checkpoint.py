"""The WAL checkpointed when the unit is quiet (store/upkeep.py), killed at every file-system call: nothing committed
is lost, the ledger verifies.

The world's ledger has a long write-ahead log (payments committed by a unit that was then killed: no clean close
folded them in). ``banker script`` with only a ``wait`` opens it and sits quiet: the shell's upkeep checkpoints the
log into the ledger file (PASSIVE), then the close checkpoints what is left and removes the log. Every call is
killed, not a sample.
"""

import subprocess
import sys

from store.upkeep import IDLE_FRAMES
from tests.crash.harness import Operation, World, crash_every_call, journal, strace
from tests.crash.world import played

PAYMENTS = """
import os, sys
from runtime.ledger import open_ledger
from tests.conftest import Table
ledger = open_ledger(sys.argv[1])
table = Table(ledger)
table.insert("left", "Alice")
for n in range({count}):
    table.type("1M")
from store.upkeep import wal_frames
print(wal_frames(sys.argv[1]))
sys.stdout.flush()
os._exit(0)  # killed: the log is left as it is, every payment in it committed
"""


def with_a_long_wal(world: World, count: int = 60) -> int:
    done = subprocess.run([sys.executable, "-c", PAYMENTS.format(count=count), str(world.ledger)],
                          capture_output=True, text=True, env=world.env(), cwd=world.folder)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def checkpointed(world: World, pristine: World) -> list[str]:
    """Beyond the ledger's checks: every row the log held is still there (the journal is the one before or after)."""
    before, now = journal(pristine.ledger), journal(world.ledger)
    if now is None or before is None or now[:len(before)] != before:
        return ["rows committed before the checkpoint are missing"]
    return []


QUIET = Operation("idle checkpoint", ["script", "{dir}/quiet.kps", "--db", "{db}"],
                  acknowledged=lambda out: True, extra=checkpointed)


def test_a_checkpoint_killed_at_any_call_loses_nothing_committed(tmp_path):
    strace()
    world = played(tmp_path / "pristine")
    frames = with_a_long_wal(world)
    assert frames >= IDLE_FRAMES  # the log long enough for the quiet unit to checkpoint it
    (world.folder / "quiet.kps").write_text("wait 3\n")
    report = crash_every_call(QUIET, world, tmp_path)
    print(f"idle checkpoint: {report.enumerated} calls, {report.killed} killed, {report.held} held")
    assert report.killed == report.enumerated
    assert not report.failures, "\n".join(report.failures)
