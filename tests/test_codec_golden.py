"""The codec writes exactly the bytes the hand-written codec of commit e592350 wrote, for every kind of record.

The keyed chain hashes each row's stored bytes, so a record must keep its one
body text forever: ``tests/fixtures/codec-golden.json`` holds the bodies of
the golden records (``tests/codec_records.py``: every kind, every kind of
estate change, checkpoints and snapshots) as that codec wrote them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from banker.records import KINDS, Checkpoint, GameRestored, Snapshot, Transaction
from store.codec import decode, encode
from store.journal import Row, decode_row
from tests.codec_records import golden_records

GOLDEN = json.loads((Path(__file__).parent / "fixtures" / "codec-golden.json").read_text(encoding="ascii"))
RECORDS = golden_records()


def test_the_golden_records_cover_every_kind_and_every_estate_change():
    assert len(RECORDS) == len(GOLDEN)
    assert {kind for kind, _body, _time in GOLDEN} == set(KINDS.values())
    changes = {type(c).__name__ for r in RECORDS if isinstance(r, Transaction) for c in r.changes}
    estates = {type(c).__name__ for r in RECORDS for cp in _checkpoints(r) for c in cp.estate}
    assert len(changes) == len(estates) == 4


@pytest.mark.parametrize("index", range(len(GOLDEN)))
def test_each_record_is_encoded_byte_for_byte_as_before(index):
    kind, body, _time = GOLDEN[index]
    assert encode(RECORDS[index]) == (kind, body)


@pytest.mark.parametrize("index", range(len(GOLDEN)))
def test_each_stored_body_reads_back_as_the_record_on_both_paths(index):
    kind, body, time = GOLDEN[index]
    assert decode(kind, body, seq=index + 1, time=time) == RECORDS[index]
    assert decode_row(Row(index + 1, None, None, time, kind, body, "")) == RECORDS[index]


def _checkpoints(record) -> list[Checkpoint]:
    if isinstance(record, GameRestored):
        return [record.checkpoint]
    if isinstance(record, Snapshot) and record.current is not None:
        return [record.current]
    return []
