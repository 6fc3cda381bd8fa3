"""A new game, the first write of a new ledger and an export, killed at their file-system calls.

They make many calls (a backup, a new key and ledger, a whole journal written out): the default run kills
at an evenly spread sample of them (tests/crash/harness.py SAMPLE), ``BANKER_CRASH_ALL=1`` at every one.
"""

import pytest

from tests.crash.harness import Operation, World, crash_every_call, journal, strace
from tests.crash.world import empty, played


def export_whole_or_absent(world: World, pristine: World) -> list[str]:
    """The export is either not there or whole (its last line ends it): never a cut file under its name."""
    out = world.folder / "out.csv"
    if not out.exists():
        return []
    text = out.read_text()
    rows = len(journal(world.ledger) or [])
    return [] if text.endswith("\n") and text.count("\n") >= rows else [f"a cut export ({len(text)} bytes)"]


LONG = [
    Operation("new game", ["game", "new", "--start", "20M", "--db", "{db}"],
              acknowledged=lambda out: "started" in out, sampled=True),
    Operation("first write", ["cards", "enrol", "Zed", "--uid", "0A0B", "--db", "{db}"],
              acknowledged=lambda out: out.startswith("enrolled"), sampled=True),
    Operation("export", ["ledger", "export", "--format", "csv", "-o", "{dir}/out.csv", "--db", "{db}"],
              acknowledged=lambda out: True, sampled=True, extra=export_whole_or_absent),
]


@pytest.mark.parametrize("operation", LONG, ids=[op.name for op in LONG])
def test_a_long_operation_killed_at_its_calls_leaves_a_ledger_that_verifies_before_or_after(operation, tmp_path):
    strace()
    start = empty(tmp_path / "pristine") if operation.name == "first write" else played(tmp_path / "pristine")
    report = crash_every_call(operation, start, tmp_path)
    print(f"{operation.name}: {report.enumerated} calls, {report.killed} killed, {report.held} held")
    assert report.killed > 0
    assert not report.failures, "\n".join(report.failures)
