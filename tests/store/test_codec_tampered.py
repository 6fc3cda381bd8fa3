"""Every record's body with any one value swapped for one of another kind (what an edit of the file could leave):
decoding names it as a corrupt entry or reads a record, never a crash (a traceback in `ledger verify`)."""

from __future__ import annotations

import json

import pytest

from banker.errors import CorruptLedger
from store.codec import decode, encode
from tests.store.codec_records import golden_records

SWAPS = ("x", 7, -1, 1.5, True, None, [], [1, "x"], {}, {"a": 1}, 2**70)


def _paths(value, path=()):
    """Every place in a JSON value: a path of keys and indexes."""
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*path, i))


def _swapped(value, path, new):
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    at = copy
    for step in path[:-1]:
        at = at[step]
    at[path[-1]] = new
    return copy


def _samples():
    seen = set()
    for record in golden_records():
        kind, body = encode(record)
        if kind not in seen:  # one record of each kind: the swaps cover its every field
            seen.add(kind)
            yield pytest.param(kind, body, id=kind)


@pytest.mark.parametrize("kind, body", list(_samples()))
def test_a_body_with_any_value_of_another_kind_is_named_or_read_never_a_crash(kind, body):
    value = json.loads(body)
    for path in _paths(value):
        for new in SWAPS:
            text = json.dumps(_swapped(value, path, new))
            try:
                decode(kind, text, seq=5, time=1_700_000_000.5)
            except CorruptLedger:
                pass
