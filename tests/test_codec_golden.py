"""The codec writes exactly the bytes the hand-written codec of commit e592350 wrote, for every kind of record.

The keyed chain hashes each row's stored bytes, so a record must keep its one
body text forever: ``tests/fixtures/codec-golden.json`` holds the bodies of
the golden records (``tests/codec_records.py``: every kind, every kind of
estate change, checkpoints and snapshots) as that codec wrote them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from banker import game
from banker.errors import CorruptLedger
from banker.records import BANK, KINDS, ROWS, Checkpoint, GameRestored, Posting, Snapshot, Transaction
from firmware_sim.memory_store import MemoryStore
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


@dataclass(frozen=True)
class Auction:
    """A record kind the store has never seen: it needs nothing in the store to be written and read back."""

    slug: str
    bids: tuple[Posting, ...] = field(metadata=ROWS)
    winner: int | None = None
    opened: float | None = None
    time: float | None = None


def test_a_new_record_kind_is_stored_and_read_back_with_nothing_written_for_it_in_the_store(monkeypatch):
    monkeypatch.setitem(KINDS, Auction, "auction")  # its word, in banker/records.py
    monkeypatch.setitem(game._APPLY, Auction, lambda g, record: g)  # its fold, in banker/game.py
    auction = Auction("boardwalk", (Posting(1, BANK, 5, "bid"), Posting(2, BANK, 7, "bid")), 2, 1.5)
    assert encode(auction) == ("auction", '{"bids":[[1,null,5,"bid"],[2,null,7,"bid"]],"opened":1.5,'
                                          '"slug":"boardwalk","winner":2}')
    store = MemoryStore(clock=lambda: 100.0)
    written = store.append(auction)
    assert list(store.records()) == [written] == [replace(auction, time=100.0)]
    assert store.verify().ok
    with pytest.raises(CorruptLedger, match="expected a whole number"):
        decode("auction", '{"bids":[],"opened":null,"slug":"boardwalk","winner":"Bob"}', seq=1, time=1.0)
