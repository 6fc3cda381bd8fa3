"""A row whose columns were edited to hold values of another kind (a blob for the body, text for the time, a
hash that isn't hexadecimal) is named by verify, in one process and split across several, never a traceback."""

import shutil
import sqlite3

import pytest

from tests.store.test_verify_parts import a_ledger, audit_of

CASES = {
    "body as a blob": "UPDATE journal SET body = CAST(body AS BLOB) WHERE tx = 150",
    "time as text": "UPDATE journal SET time = 'x' WHERE tx = 150",
    "hash not hexadecimal": "UPDATE journal SET hash = 'zz' WHERE tx = 150",
    "kind as a blob": "UPDATE journal SET kind = CAST(kind AS BLOB) WHERE tx = 150",
    "game as text": "UPDATE journal SET game = 'a' WHERE tx = 150",
}


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    return a_ledger(tmp_path_factory.mktemp("typed") / "ledger.db", restored=False)


@pytest.mark.parametrize("processes", [None, 3])
@pytest.mark.parametrize("name", list(CASES))
def test_a_column_of_another_kind_is_named_not_raised(honest, tmp_path, name, processes, monkeypatch):
    path = tmp_path / "ledger.db"
    shutil.copy(honest, path)
    with sqlite3.connect(path) as conn:
        conn.execute(CASES[name])
    conn.close()
    problems = audit_of(path, processes, monkeypatch)[0]
    assert any("edited" in str(problem) for problem in problems), problems  # named as edited, not raised
