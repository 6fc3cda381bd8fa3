"""The journal's byte encoding: each record as canonical JSON text, and the hash that chains the rows.

A record is stored as its kind (:data:`banker.records.KINDS`) and a body:
JSON with sorted keys, compact separators and ASCII only, so one record has
exactly one body text. The record's own ``time`` is kept beside the body
(the row's ``time`` column); times of transactions nested in a record
(an enrolment's opening, a new game's openings, a checkpoint's last
transaction) are in the body. Decoding gives back equal dataclasses.

>>> from banker.records import Rename
>>> encode(Rename(3, "Cleo"))
('rename', '{"card_id":3,"name":"Cleo"}')
>>> decode("rename", '{"card_id":3,"name":"Cleo"}', seq=7, time=1.5)
Rename(card_id=3, name='Cleo', time=1.5)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
from dataclasses import fields, replace
from typing import Any, Callable

from banker.errors import CorruptLedger
from banker.records import (
    KINDS,
    Card,
    ChainStart,
    Checkpoint,
    DeedTag,
    Enrolment,
    GameRestored,
    GameSettings,
    NewGame,
    PinChange,
    PinFailure,
    Posting,
    Record,
    Removal,
    Rename,
    Setting,
    Snapshot,
    Transaction,
)

_TYPES = {kind: cls for cls, kind in KINDS.items()}
_CHAIN_DOMAIN = b"banker-journal-v2\n"
_KEYED_DOMAIN = b"banker-journal-v3\n"
#: The name a :class:`~banker.records.ChainStart` gives the unkeyed chain of schema 2 (and migrated v1) rows.
V2_SCHEME = "sha256-v2"


# -- stamping and the chain -------------------------------------------------------------------


def stamped(record: Record, time: float) -> Record:
    """``record`` with its wall-clock ``time`` (and that of the transactions it carries) set."""
    if isinstance(record, Enrolment):
        return replace(record, time=time, opening=replace(record.opening, time=time))
    if isinstance(record, NewGame):
        return replace(record, time=time, openings=tuple(replace(o, time=time) for o in record.openings))
    return replace(record, time=time)


def chain_hash(previous: str, seq: int, game: int | None, tx: int | None, time: float, kind: str, body: str) -> str:
    """The hash of a journal row after the row whose hash is ``previous`` ("" for the first row).

    The material is a fixed layout: each field as UTF-8 text (numbers in
    decimal, the time as Python's shortest exact float text, None as "-"),
    each prefixed by its length as 4 bytes big-endian.
    """
    return hashlib.sha256(_material(_CHAIN_DOMAIN, previous, seq, game, tx, time, kind, body)).hexdigest()


def keyed_hash(key: bytes, previous: str, seq: int, game: int | None, tx: int | None, time: float, kind: str,
               body: str) -> str:
    """The keyed chain's hash of a row (schema 3): HMAC-SHA256 under the ledger's key, as 64 hex digits.

    The material is a fixed byte layout, read from the row as stored (never
    re-serialised): the domain ``banker-journal-v3``, the previous hash's 32
    bytes (none for the first row), then big-endian ``seq`` (8 bytes), ``game``
    and ``tx`` (8 bytes each, -1 for none), the time as an IEEE double, the
    kind's and the body's lengths (4 bytes each), and their UTF-8 bytes.
    """
    kind_bytes, body_bytes = kind.encode("utf-8"), body.encode("utf-8")
    material = b"".join((_KEYED_DOMAIN, bytes.fromhex(previous),
                         _HEADER(seq, -1 if game is None else game, -1 if tx is None else tx, time,
                                 len(kind_bytes), len(body_bytes)), kind_bytes, body_bytes))
    return hmac.digest(key, material, "sha256").hex()


def _material(domain: bytes, previous: str, seq: int, game: int | None, tx: int | None, time: float, kind: str,
              body: str) -> bytes:
    out = [domain]
    for part in (previous, str(seq), "-" if game is None else str(game), "-" if tx is None else str(tx),
                 repr(float(time)), kind, body):
        data = part.encode("utf-8")
        out.append(_LENGTH(len(data)))
        out.append(data)
    return b"".join(out)


_LENGTH = struct.Struct(">I").pack
_HEADER = struct.Struct(">qqqdII").pack


def _text(number: int | None) -> str:
    return "-" if number is None else str(number)


# -- encoding ---------------------------------------------------------------------------------


def encode(record: Record) -> tuple[str, str]:
    """The record's kind and canonical body text (its own ``time`` is not in the body)."""
    kind = KINDS.get(type(record))
    if kind is None:
        raise TypeError(f"not a journal record: {record!r}")
    return kind, canonical(_ENCODERS[type(record)](record))


def canonical(value: Any) -> str:
    """The one JSON text of ``value``: sorted keys, no spaces, ASCII, no NaN."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def _posting(p: Posting) -> list:
    return [p.payer, p.payee, p.amount, p.kind]


def _transaction(tx: Transaction, *, with_time: bool = True) -> dict:
    body = {"kind": tx.kind, "postings": [_posting(p) for p in tx.postings], "memo": tx.memo,
            "reverses": tx.reverses, "changes": [list(c) for c in tx.changes], "id": tx.id, "game": tx.game}
    if with_time:
        body["time"] = tx.time
    return body


def _settings(s: GameSettings) -> dict:
    return {f.name: getattr(s, f.name) for f in fields(GameSettings)}


def _checkpoint(cp: Checkpoint) -> dict:
    return {"game": cp.game, "settings": _settings(cp.settings), "started": cp.started,
            "balances": [list(b) for b in cp.balances], "estate": [list(c) for c in cp.estate],
            "last": None if cp.last is None else _transaction(cp.last), "undone": list(cp.undone),
            "bankruptcies": list(cp.bankruptcies), "transactions": cp.transactions}


_ENCODERS: dict[type, Callable[[Any], dict]] = {
    Transaction: lambda r: _transaction(r, with_time=False),
    Enrolment: lambda r: {"card": {"id": r.card.id, "uid": r.card.uid, "name": r.card.name},
                          "opening": _transaction(r.opening)},
    Rename: lambda r: {"card_id": r.card_id, "name": r.name},
    Removal: lambda r: {"card_id": r.card_id},
    DeedTag: lambda r: {"uid": r.uid, "slug": r.slug},
    Setting: lambda r: {"key": r.key, "value": r.value},
    PinChange: lambda r: {"pin_hash": r.pin_hash},
    NewGame: lambda r: {"game": r.game, "settings": _settings(r.settings),
                        "openings": [_transaction(o) for o in r.openings]},
    GameRestored: lambda r: {"checkpoint": _checkpoint(r.checkpoint)},
    PinFailure: lambda r: {"via": r.via},
    Snapshot: lambda r: {"current": None if r.current is None else _checkpoint(r.current),
                         "cards": [[c.id, c.uid, c.name] for c in r.cards], "names": [list(n) for n in r.names],
                         "deed_tags": [list(t) for t in r.deed_tags], "options": [list(o) for o in r.options],
                         "pin_hash": r.pin_hash, "pin_failures": list(r.pin_failures), "next_tx": r.next_tx,
                         "next_card": r.next_card, "next_game": r.next_game},
    ChainStart: lambda r: {"scheme": r.scheme, "previous": r.previous, "rows": r.rows},
}


# -- decoding ---------------------------------------------------------------------------------


class _Malformed(ValueError):
    pass


def decode(kind: str, body: str, *, seq: int, time: float | None) -> Record:
    """The record stored as ``kind`` and ``body`` in row ``seq``; :class:`CorruptLedger` naming the row if not."""
    cls = _TYPES.get(kind)
    if cls is None:
        raise CorruptLedger(f"journal entry {seq} has an unknown kind {kind!r}: a newer banker's ledger?")
    try:
        data = json.loads(body)
        record = _DECODERS[cls](_object(data))
        object.__setattr__(record, "time", _opt_float(time))  # a fresh value, seen by no one yet
        return record
    except (ValueError, TypeError, KeyError) as exc:
        raise CorruptLedger(f"journal entry {seq} ({kind}) cannot be read: {exc}") from exc


def _object(value: Any, required: tuple[str, ...] = ()) -> dict:
    if not isinstance(value, dict):
        raise _Malformed(f"expected an object, found {value!r}")
    missing = [k for k in required if k not in value]
    extra = [k for k in value if k not in required]
    if required and (missing or extra):
        raise _Malformed(f"fields {sorted(missing)} missing, {sorted(extra)} unexpected")
    return value


def _list(value: Any) -> list:
    if not isinstance(value, list):
        raise _Malformed(f"expected a list, found {value!r}")
    return value


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Malformed(f"expected a whole number, found {value!r}")
    return value


def _opt_int(value: Any) -> int | None:
    return None if value is None else _int(value)


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise _Malformed(f"expected text, found {value!r}")
    return value


def _opt_float(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Malformed(f"expected a time, found {value!r}")
    return float(value)


def _plain(value: Any) -> Any:
    if value is not None and not isinstance(value, (str, int, bool)):
        raise _Malformed(f"an estate change holds {value!r}")
    return value


def _changes(value: Any) -> tuple[tuple, ...]:
    return tuple(tuple(_plain(v) for v in _list(c)) for c in _list(value))


def _posting_of(value: Any) -> Posting:
    payer, payee, amount, kind = _list(value)
    return Posting(_opt_int(payer), _opt_int(payee), _int(amount), _str(kind))


_TX_FIELDS = ("kind", "postings", "memo", "reverses", "changes", "id", "game")


def _transaction_of(d: Any, *, with_time: bool = True) -> Transaction:
    d = _object(d, _TX_FIELDS + (("time",) if with_time else ()))
    return Transaction(_str(d["kind"]), tuple(_posting_of(p) for p in _list(d["postings"])), _str(d["memo"]),
                       _opt_int(d["reverses"]), _changes(d["changes"]), _opt_int(d["id"]), _opt_int(d["game"]),
                       _opt_float(d["time"]) if with_time else None)


def _settings_of(d: Any) -> GameSettings:
    settings = GameSettings(**_object(d))
    checks = {"start_balance": _int, "go_salary": _int, "edition": _str, "houses_for_hotel": _int,
              "luxury_tax": _opt_int}
    for name, check in checks.items():
        check(getattr(settings, name))
    for name in ("allow_negative", "income_tax_choice"):
        if not isinstance(getattr(settings, name), bool):
            raise _Malformed(f"{name} is {getattr(settings, name)!r}, not true or false")
    return settings


def _pairs(value: Any) -> tuple[tuple[int, int], ...]:
    pairs = []
    for pair in _list(value):
        card, amount = _list(pair)
        pairs.append((_int(card), _int(amount)))
    return tuple(pairs)


def _checkpoint_of(d: Any) -> Checkpoint:
    d = _object(d, ("game", "settings", "started", "balances", "estate", "last", "undone", "bankruptcies",
                    "transactions"))
    return Checkpoint(_int(d["game"]), _settings_of(d["settings"]), _opt_float(d["started"]), _pairs(d["balances"]),
                      _changes(d["estate"]), None if d["last"] is None else _transaction_of(d["last"]),
                      tuple(_int(t) for t in _list(d["undone"])), tuple(_int(t) for t in _list(d["bankruptcies"])),
                      _int(d["transactions"]))


def _enrolment_of(d: dict) -> Enrolment:
    d = _object(d, ("card", "opening"))
    card = _object(d["card"], ("id", "uid", "name"))
    return Enrolment(Card(_int(card["id"]), _str(card["uid"]), _str(card["name"])), _transaction_of(d["opening"]))


def _new_game_of(d: dict) -> NewGame:
    d = _object(d, ("game", "settings", "openings"))
    openings = tuple(_transaction_of(o) for o in _list(d["openings"]))
    return NewGame(_int(d["game"]), _settings_of(d["settings"]), openings)


def _simple(cls: type, **checks: Callable[[Any], Any]) -> Callable[[dict], Record]:
    """A decoder for a record of plain fields, each read through its check."""
    names = tuple(checks)

    def decoder(d: dict) -> Record:
        d = _object(d, names)
        return cls(*(check(d[name]) for name, check in checks.items()))
    return decoder


def _texts(value: Any) -> tuple[tuple[str, str], ...]:
    out = []
    for pair in _list(value):
        a, b = _list(pair)
        out.append((_str(a), _str(b)))
    return tuple(out)


def _snapshot_of(d: dict) -> Snapshot:
    d = _object(d, ("current", "cards", "names", "deed_tags", "options", "pin_hash", "pin_failures", "next_tx",
                    "next_card", "next_game"))
    cards = []
    for c in _list(d["cards"]):
        card_id, uid, name = _list(c)
        cards.append(Card(_int(card_id), _str(uid), _str(name)))
    names = []
    for n in _list(d["names"]):
        card_id, name = _list(n)
        names.append((_int(card_id), _str(name)))
    return Snapshot(None if d["current"] is None else _checkpoint_of(d["current"]), tuple(cards), tuple(names),
                    _texts(d["deed_tags"]), _texts(d["options"]),
                    None if d["pin_hash"] is None else _str(d["pin_hash"]),
                    tuple(float(_opt_float(t)) for t in _list(d["pin_failures"])), _int(d["next_tx"]),
                    _int(d["next_card"]), _int(d["next_game"]))


_TX_KEYS = frozenset(_TX_FIELDS)
_new = object.__new__


def fast_transaction(d: Any) -> Transaction | None:
    """A stored transaction read with the same checks as :func:`_transaction_of`, in a quarter of the time, or
    None when anything is off (the careful path then says what): most rows are these, and verify reads them all."""
    if type(d) is not dict or d.keys() != _TX_KEYS:
        return None
    kind, memo, reverses, tx_id, game, raw = d["kind"], d["memo"], d["reverses"], d["id"], d["game"], d["postings"]
    if (type(kind) is not str or type(memo) is not str or type(raw) is not list
            or not (reverses is None or type(reverses) is int) or not (tx_id is None or type(tx_id) is int)
            or not (game is None or type(game) is int)):
        return None
    postings = []
    for p in raw:
        if type(p) is not list or len(p) != 4:
            return None
        payer, payee, amount, what = p
        if (type(amount) is not int or amount <= 0 or type(what) is not str
                or not (payer is None or type(payer) is int) or not (payee is None or type(payee) is int)
                or (payer is not None and payer == payee)):
            return None
        posting = _new(Posting)
        posting.__dict__.update(payer=payer, payee=payee, amount=amount, kind=what)
        postings.append(posting)
    changes = d["changes"]
    if type(changes) is not list:
        return None
    if changes:
        try:
            changes = _changes(changes)
        except _Malformed:
            return None
    tx = _new(Transaction)
    tx.__dict__.update(kind=kind, postings=tuple(postings), memo=memo, reverses=reverses,
                       changes=tuple(changes), id=tx_id, game=game, time=None)
    return tx


def _stored_transaction(d: Any) -> Transaction:
    return fast_transaction(d) or _transaction_of(d, with_time=False)


_DECODERS: dict[type, Callable[[dict], Record]] = {
    Transaction: _stored_transaction,
    Enrolment: _enrolment_of,
    Rename: _simple(Rename, card_id=_int, name=_str),
    Removal: _simple(Removal, card_id=_int),
    DeedTag: _simple(DeedTag, uid=_str, slug=_str),
    Setting: _simple(Setting, key=_str, value=_str),
    PinChange: _simple(PinChange, pin_hash=_str),
    NewGame: _new_game_of,
    GameRestored: lambda d: GameRestored(_checkpoint_of(_object(d, ("checkpoint",))["checkpoint"])),
    PinFailure: _simple(PinFailure, via=_str),
    Snapshot: _snapshot_of,
    ChainStart: _simple(ChainStart, scheme=_str, previous=_str, rows=_int),
}
