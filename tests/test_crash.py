"""Killed mid-game with SIGKILL, the unit never leaves a half transaction or loses a committed one."""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from banker.ledger import fold_balances
from drivers.ledger_schema import chain_hash
from drivers.ledger_sqlite import SqliteLedger

ROOT = Path(__file__).resolve().parent.parent

# A player at the table as fast as a machine can be: transfers, payments, GO and
# new games, each reported on stdout only after the unit said it was done.
GAME = r"""
import random, sys
from drivers.ledger_sqlite import SqliteLedger
from firmware_sim.core_backend import CoreBackend

ledger = SqliteLedger(sys.argv[1])
table = CoreBackend(ledger)
for name, uid in (("Alice", "A1"), ("Bob", "B2"), ("Cleo", "C3"), ("Dan", "D4")):
    table.enrol(name, uid)
rng = random.Random(int(sys.argv[2]))
names = ["Alice", "Bob", "Cleo", "Dan"]
while True:
    if rng.random() < 0.03:
        table.remove("left"); table.remove("right")
        table.hold("C", 2.5)
        print("game", ledger.game().id, flush=True)
        continue
    a, b = rng.sample(names, 2)
    table.insert("left", a); table.insert("right", b)
    for key in str(rng.randint(1, 500)) + "K":
        table.press(key)
    if table.effects[-1].tone == "success":
        print("tx", ledger.transactions()[-1].id, flush=True)
    table.remove("left"); table.remove("right")
"""


def play_and_kill(path: Path, seed: int, after: float) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", GAME, str(path), str(seed)], stdout=subprocess.PIPE, env=env, text=True)
    time.sleep(after)
    proc.send_signal(signal.SIGKILL)
    out, _ = proc.communicate()
    return out.splitlines()


def test_sigkill_never_leaves_a_half_transaction(tmp_path):
    rng = random.Random(7)
    path = tmp_path / "ledger.db"
    reported: list[int] = []
    for run in range(8):
        lines = play_and_kill(path, seed=run, after=0.6 + rng.random() * 0.8)
        reported += [int(line.split()[1]) for line in lines if line.startswith("tx ")]
        with SqliteLedger(path) as ledger:
            ledger.check()
            previous, ids = "", []
            for *row, stored in ledger.journal_rows():
                previous = chain_hash(previous, tuple(row))
                assert previous == stored, "journal chain broken"
                ids.append(row[0])
            assert len(ids) == len(set(ids))
            assert set(reported) <= set(ids), "a transaction reported as committed is lost"
            for game in ledger.games():
                txs = ledger.transactions(game.id)
                openings = [tx for tx in txs if tx.kind == "opening"]
                # a new game is all four openings or nothing (the game row commits with them)
                assert len(openings) == 4, f"game {game.id} has {len(openings)} openings"
                balances = fold_balances(txs)
                assert sum(balances.values()) == 4 * 15_000_000  # transfers only move money
    assert len(reported) > 20, "the game did not get going before the kills"
