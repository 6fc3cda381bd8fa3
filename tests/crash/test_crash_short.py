"""A restore and a payment, killed at every file-system call they make: the ledger always verifies, before or after.

The counts (calls enumerated, points killed, points held) are printed at the end of the session.
"""

from pathlib import Path

from tests.crash.harness import Operation, World, crash_every_call, file_print, strace
from tests.crash.world import played


def backups_untouched(world: World, pristine: World) -> list[str]:
    """Every backup there was is there unchanged (same bytes, same mtime) with nothing beside it."""
    problems = []
    for old in sorted((pristine.folder / "backups").iterdir()):
        now = world.folder / "backups" / old.name
        if file_print(now) != file_print(old):
            problems.append(f"the backup {old.name} was changed")
        for suffix in ("-journal", "-wal", "-shm"):
            if Path(f"{now}{suffix}").exists():
                problems.append(f"a {suffix} file beside the backup {old.name}")
    return problems


RESTORE = Operation("restore", ["game", "restore", "--backup", "latest", "--db", "{db}"],
                    acknowledged=lambda out: out.startswith("restored "), extra=backups_untouched)
PAYMENT = Operation("payment", ["script", "{dir}/pay.kps", "--db", "{db}"],
                    acknowledged=lambda out: "1 transaction posted" in out)


def test_a_restore_killed_at_any_call_leaves_a_ledger_that_verifies_before_or_after(tmp_path):
    strace()
    report = crash_every_call(RESTORE, played(tmp_path / "pristine", after_backup=True), tmp_path)
    print(f"restore: {report.enumerated} calls, {report.killed} killed, {report.held} held")
    assert report.killed == report.enumerated
    assert not report.failures, "\n".join(report.failures)


def test_a_payment_killed_at_any_call_is_whole_or_absent(tmp_path):
    strace()
    report = crash_every_call(PAYMENT, played(tmp_path / "pristine"), tmp_path)
    print(f"payment: {report.enumerated} calls, {report.killed} killed, {report.held} held")
    assert report.killed == report.enumerated
    assert not report.failures, "\n".join(report.failures)
