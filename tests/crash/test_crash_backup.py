"""A backup brought forward, killed at every file-system call: every other backup is untouched, the latest good one
is the one before or the new one, and the next backup mends the one cut short.

The world has its rotation full (:data:`store.KEEP` backups), so ``banker game new`` writes its record and then
brings the oldest backup forward to the ledger's head (store/rotation.py). Every call is killed, not a sample.
"""

import subprocess
import sys

from store import KEEP
from tests.crash.harness import Operation, World, crash_every_call, file_print, strace
from tests.crash.world import banker, played


def backup_rows(path) -> list | None:
    import sqlite3

    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)  # read-only: a hot journal is left as it is
        try:
            return conn.execute("SELECT seq, hash FROM journal ORDER BY seq").fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return None


def previous_backups_hold(world: World, pristine: World) -> list[str]:
    """The other backups unchanged; the latest good one the one before or one at the ledger's head; and after the
    next backup (run here), no journal left, every backup whole, :data:`KEEP` of them, the newest at the head."""
    from store.backups import is_good_backup, latest_good_backup, list_backups

    problems = []
    before = list_backups(pristine.ledger)
    now = {p.name: p for p in list_backups(world.ledger)}
    changed = [p.name for p in before[:-1] if p.name not in now or file_print(now[p.name]) != file_print(p)]
    if changed:  # the oldest is the one brought forward (and renamed)
        problems.append(f"backups other than the oldest changed: {changed}")
    latest = latest_good_backup(world.ledger)
    head = backup_rows(world.ledger)
    if latest is None or backup_rows(latest) not in (backup_rows(before[0]), head):
        problems.append(f"the latest good backup ({latest}) is neither the one before nor at the head")
    mend = subprocess.run([sys.executable, "-c", "import sys; from store.backups import make_backup; "
                           "make_backup(sys.argv[1], sys.argv[1], 'interval')", str(world.ledger)],
                          capture_output=True, text=True, env=world.env())
    if mend.returncode != 0:
        return problems + [f"the next backup failed: {mend.stderr[-300:]}"]
    after = list_backups(world.ledger)
    if list((world.folder / "backups").glob("*-journal")):
        problems.append("a journal is left after the next backup")
    if len(after) != KEEP or not all(is_good_backup(p) for p in after):
        problems.append(f"after the next backup: {len(after)} backups, not all whole")
    elif backup_rows(after[0]) != backup_rows(world.ledger):
        problems.append("the next backup is not at the ledger's head")
    return problems


BACKUP = Operation("backup brought forward", ["game", "new", "--start", "20M", "--db", "{db}"],
                   acknowledged=lambda out: "started" in out, extra=previous_backups_hold)


def test_a_backup_killed_at_any_call_leaves_the_previous_backups_good(tmp_path):
    strace()
    world = played(tmp_path / "pristine", after_backup=True)
    for _ in range(KEEP):
        banker(world, "game", "new")
    report = crash_every_call(BACKUP, world, tmp_path)
    print(f"backup: {report.enumerated} calls, {report.killed} killed, {report.held} held")
    assert report.killed == report.enumerated
    assert not report.failures, "\n".join(report.failures)
