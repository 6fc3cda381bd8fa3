"""The codec writes exactly the bytes the hand-written codec of commit e592350 wrote, for every kind of record.

The keyed chain hashes each row's stored bytes, so a record must keep its one
body text forever: ``tests/fixtures/codec-golden.json`` holds the bodies of
the golden records (``tests/store/codec_records.py``: every kind, every kind of
estate change, checkpoints and snapshots) as that codec wrote them.
"""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from banker.fold import game
from banker.errors import CorruptLedger
from banker.journal.records import BANK, KINDS, ROWS, Checkpoint, GameRestored, Posting, Snapshot, Transaction
from firmware_sim.memory_store import MemoryStore
from store.codec import canonical, decode, encode
from store.hot_rows import checked_transaction, fast_transaction, plain_transaction
from store.journal import Row, decode_row
from tests.store.codec_records import golden_records

GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "fixtures" / "codec-golden.json").read_text(encoding="ascii"))
RECORDS = golden_records()


def test_the_golden_records_cover_every_kind_and_every_estate_change():
    assert len(RECORDS) == len(GOLDEN)
    assert {kind for kind, _body, _time in GOLDEN} == set(KINDS.values())
    changes = {type(c).__name__ for r in RECORDS if isinstance(r, Transaction) for c in r.changes}
    estates = {type(c).__name__ for r in RECORDS for cp in _checkpoints(r) for c in cp.estate}
    assert len(changes) == len(estates) == 5


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
    monkeypatch.setitem(KINDS, Auction, "auction")  # its word, in banker/journal/records.py
    monkeypatch.setitem(game._APPLY, Auction, lambda g, record: g)  # its fold, in banker/fold/game.py
    auction = Auction("boardwalk", (Posting(1, BANK, 5, "bid"), Posting(2, BANK, 7, "bid")), 2, 1.5)
    assert encode(auction) == ("auction", '{"bids":[[1,null,5,"bid"],[2,null,7,"bid"]],"opened":1.5,'
                                          '"slug":"boardwalk","winner":2}')
    store = MemoryStore(clock=lambda: 100.0)
    written = store.append(auction)
    assert list(store.records()) == [written] == [replace(auction, time=100.0)]
    assert store.verify().ok
    with pytest.raises(CorruptLedger, match="expected a whole number"):
        decode("auction", '{"bids":[],"opened":null,"slug":"boardwalk","winner":"Bob"}', seq=1, time=1.0)


_TX = {"changes": [], "game": 3, "id": 41, "kind": "rent", "memo": "", "postings": [[1, 2, 500, "rent"]],
       "reverses": None}
_ODD = [("postings", [[1, 1, 5, "x"]]), ("postings", [[1, 2, 0, "x"]]), ("postings", [[1, 2, -5, "x"]]),
        ("postings", [[1, 2, True, "x"]]), ("postings", [[1, 2, 5.0, "x"]]), ("postings", [[True, 2, 5, "x"]]),
        ("postings", [[1, "2", 5, "x"]]), ("postings", [[1, 2, 5]]), ("postings", [[1, 2, 5, "x", 1]]),
        ("postings", [[1, 2, 5, None]]), ("postings", [(1, 2, 5, "x")]), ("postings", "no"), ("postings", []),
        ("postings", [[None, None, 5, "x"], [1, None, 2, "y"]]), ("changes", [["owner", "boardwalk", None, 1]]),
        ("changes", [["nothing", 1]]), ("changes", {}), ("reverses", 7), ("reverses", "7"), ("reverses", False),
        ("id", None), ("id", 4.0), ("game", True), ("memo", None), ("memo", "Bob pays"), ("kind", 1)]


_COMMON = {None, "memo", "reverses", "postings", "changes"}  # valid values of these: the fast path reads them


@pytest.mark.parametrize("field_name,value", [(None, None), *_ODD])
def test_the_fast_transaction_path_reads_exactly_what_the_derived_decoder_reads(field_name, value):
    body = canonical(_TX if field_name is None else {**_TX, field_name: value})
    derived, fast = checked_transaction(json.loads(body)), fast_transaction(json.loads(body), 12.5)
    if derived is None:
        assert fast is None  # then decode() says what is wrong, as ever
    else:
        assert fast is not None or field_name not in _COMMON
        if fast is not None:
            assert fast == replace(derived, time=12.5)
            assert [vars(p) for p in fast.postings] == [vars(p) for p in derived.postings]
    plain = plain_transaction(body, 12.5)
    assert (plain is None) if derived is None else (plain in (None, replace(derived, time=12.5)))
    assert plain is not None or field_name is not None  # the commonest body takes the shortest path
    with pytest.raises(CorruptLedger) if derived is None else contextlib.nullcontext():
        assert decode_row(Row(1, 3, 41, 12.5, "tx", body, "")) == replace(derived, time=12.5)


@pytest.mark.parametrize("missing", ["memo", "reverses", "changes", "id", "game"])
def test_a_transaction_stored_without_a_defaulted_field_reads_as_the_derived_decoder_reads_it(missing):
    body = json.dumps({k: v for k, v in _TX.items() if k != missing})
    assert fast_transaction(json.loads(body)) is None
    try:
        expected = decode("tx", body, seq=1, time=2.0)
    except CorruptLedger as exc:
        with pytest.raises(CorruptLedger, match=re.escape(str(exc))):
            decode_row(Row(1, 3, 41, 2.0, "tx", body, ""))
    else:
        assert decode_row(Row(1, 3, 41, 2.0, "tx", body, "")) == expected


_BASE = '{"changes":[],"game":3,"id":41,"kind":"rent","memo":"","postings":[[1,2,500,"rent"]],"reverses":null}'
_TEXTS = [_BASE, _BASE.replace('"id":41', '"id":041'), _BASE.replace('"id":41', '"id":-0'),
          _BASE.replace('"id":41', '"id":4.1'), _BASE.replace('"id":41', '"id":4e1'),
          _BASE.replace('"id":41', '"id": 41'), _BASE.replace("500", "99999999999999999999999"),
          _BASE.replace("500", "-500"), _BASE.replace("[1,2,", "[null,null,"), _BASE.replace("[1,2,", "[2,2,"),
          _BASE.replace('"memo":""', '"memo":"Zo\\u00eb"'), _BASE.replace('"memo":""', '"memo":"Zoë"'),
          _BASE.replace('"memo":""', '"memo":"a\\"b"'), _BASE.replace('"memo":""', '"memo":"a\tb"'),
          _BASE.replace('"reverses":null', '"reverses":7'), _BASE.replace('"reverses":null', '"reverses":nul'),
          _BASE + " ", " " + _BASE, _BASE + "{}", _BASE.replace('"rent"]]', '"rent"],[1,3,5,"x"]]'),
          _BASE.replace('"changes":[]', '"changes":[["owner","boardwalk",null,1]]'), _BASE.replace("}", ",}")]


@pytest.mark.parametrize("index", range(len(_TEXTS)))
def test_a_stored_transaction_text_reads_on_the_fast_paths_exactly_as_decode_reads_it(index):
    body = _TEXTS[index]
    try:
        expected = decode("tx", body, seq=1, time=2.5)
    except CorruptLedger as exc:
        with pytest.raises(CorruptLedger, match=re.escape(str(exc))):
            decode_row(Row(1, 3, 41, 2.5, "tx", body, ""))
        assert plain_transaction(body, 2.5) is None
    else:
        assert decode_row(Row(1, 3, 41, 2.5, "tx", body, "")) == expected
        assert plain_transaction(body, 2.5) in (None, expected)
