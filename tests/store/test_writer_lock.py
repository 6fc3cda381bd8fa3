"""One program writes a ledger: another program holding its lock is named as a running unit; a missing file is named."""

from __future__ import annotations

import subprocess
import sys

import pytest

from banker.errors import LedgerError
from store import LedgerInUse, take_writer_lock
from store.lock import release_writer_lock

HOLDER = ("import fcntl, os, sys\n"
          "fd = os.open(sys.argv[1], os.O_RDONLY)\n"
          "fcntl.flock(fd, fcntl.LOCK_EX)\n"
          "print('held', flush=True)\n"
          "sys.stdin.read()\n")


def test_a_ledger_another_program_writes_is_refused_as_in_use(tmp_path):
    ledger = tmp_path / "ledger.db"
    ledger.write_bytes(b"")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(ledger)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        with pytest.raises(LedgerInUse, match=f"{ledger} is in use by a running unit .*stop it first"):
            take_writer_lock(str(ledger))
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    lock = take_writer_lock(str(ledger))  # the other program ended: the lock is free
    release_writer_lock(lock)
    release_writer_lock(lock)  # twice: nothing more to give back
    release_writer_lock(None)


def test_a_missing_ledger_is_named_and_memory_needs_no_lock(tmp_path):
    with pytest.raises(LedgerError, match=f"cannot open the ledger {tmp_path / 'none.db'}: No such file"):
        take_writer_lock(str(tmp_path / "none.db"))
    assert take_writer_lock(":memory:") is None
