"""The journal's common row, a transaction, read by written-out code: verify reads 100,000 of them.

:mod:`store.codec` derives each kind's decoder from its type, and checks every value; these read the common
transaction with the same checks written out (no call per field or posting), and give None for anything
unusual or wrong, which the derived decoder then reads or names (``tests/store/test_codec_golden.py`` compares the
paths). Two steps: :func:`plain_transaction` reads the commonest body, a transaction of one posting and no
estate change, straight from its canonical text; :func:`fast_transaction` reads any transaction's parsed body.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from banker.journal.records import Posting, Transaction

from .codec import _coders, decode_changes

_NONE = type(None)
_INT_OR_NONE = (int, _NONE)
_TX_FIELDS = frozenset(("kind", "postings", "memo", "reverses", "changes", "id", "game"))
_DERIVED = _coders(Transaction)[1]
_new = object.__new__

# The canonical body (sorted keys, no spaces, ASCII) of a transaction of one posting and no estate change. JSON's
# own grammar for the values it allows: an integer (no leading zero, as JSON), null, a string without escapes or
# control characters (so its text is its value). Whatever matches is valid JSON whose values are these texts.
_INT = r"-?(?:0|[1-9][0-9]*)"
_OPT = rf"null|{_INT}"
_STR = r'"([^"\\\x00-\x1f]*)"'
_PLAIN = re.compile(rf'\{{"changes":\[\],"game":({_INT}),"id":({_INT}),"kind":{_STR},"memo":{_STR},'
                    rf'"postings":\[\[({_OPT}),({_OPT}),({_INT}),{_STR}\]\],"reverses":({_OPT})\}}').fullmatch


def plain_transaction(body: str, time: float) -> Transaction | None:
    """The transaction stored as ``body`` at ``time`` (a float), if it is the commonest kind: one posting, no
    estate change; else None (:func:`fast_transaction` or the derived decoder reads it)."""
    match = _PLAIN(body)
    if match is None:
        return None
    game, tx_id, kind, memo, payer, payee, amount, pkind, reverses = match.groups()
    payer = None if payer == "null" else int(payer)
    payee = None if payee == "null" else int(payee)
    amount = int(amount)
    if amount <= 0 or (payer is not None and payer == payee):  # Posting.__post_init__'s checks
        return None
    posting = _new(Posting)
    fields = posting.__dict__
    fields["payer"], fields["payee"], fields["amount"], fields["kind"] = payer, payee, amount, pkind
    record = _new(Transaction)
    fields = record.__dict__
    fields["kind"], fields["postings"], fields["memo"] = kind, (posting,), memo
    fields["reverses"] = None if reverses == "null" else int(reverses)
    fields["changes"], fields["id"], fields["game"], fields["time"] = (), int(tx_id), int(game), time
    return record


def fast_transaction(d: Any, time: float | None = None) -> Transaction | None:
    """A stored transaction's parsed body (and the row's ``time``, a float or None) read with every check of
    :func:`store.codec.decode`, or None when anything is off or unusual (a field left out): then the derived
    decoder reads it, or says what is wrong. Builds a record equal to the derived decoder's."""
    if type(d) is not dict or d.keys() != _TX_FIELDS:
        return None
    kind, postings, memo, reverses, changes, tx_id, game = (d["kind"], d["postings"], d["memo"], d["reverses"],
                                                            d["changes"], d["id"], d["game"])
    if (type(kind) is not str or type(memo) is not str or type(postings) is not list or type(changes) is not list
            or type(reverses) not in _INT_OR_NONE or type(tx_id) not in _INT_OR_NONE
            or type(game) not in _INT_OR_NONE):
        return None
    built = _fast_postings(postings)
    if built is None:
        return None
    if changes:
        try:
            changes = decode_changes(changes)
        except (ValueError, TypeError, KeyError):
            return None
    else:
        changes = ()
    record = _new(Transaction)
    fields = record.__dict__
    fields["kind"], fields["postings"], fields["memo"], fields["reverses"] = kind, built, memo, reverses
    fields["changes"], fields["id"], fields["game"], fields["time"] = changes, tx_id, game, time
    return record


def _fast_postings(postings: list) -> tuple[Posting, ...] | None:
    """A stored transaction's postings (``[payer, payee, amount, kind]`` each) with every check of the derived
    decoder, or None when any is off."""
    built = []
    for p in postings:
        if type(p) is not list or len(p) != 4:
            return None
        payer, payee, amount, pkind = p
        if (type(payer) not in _INT_OR_NONE or type(payee) not in _INT_OR_NONE or type(amount) is not int
                or type(pkind) is not str or amount <= 0 or (payer is not None and payer == payee)):
            return None
        posting = _new(Posting)
        fields = posting.__dict__
        fields["payer"], fields["payee"], fields["amount"], fields["kind"] = payer, payee, amount, pkind
        built.append(posting)
    return tuple(built)


def checked_transaction(d: Any) -> Transaction | None:
    """A transaction's parsed body read by the derived decoder, or None if it can't (what the tests compare
    the written-out paths with)."""
    try:
        return _DERIVED(d)
    except (ValueError, TypeError, KeyError):
        return None


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while verify walks the journal, back as it was after, error or not.
    The walk makes a few short-lived objects per row that reference counting frees; the collector would still
    scan the young ones every 700 allocations."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
