"""The journal's byte encoding: each record as canonical JSON text, and the hash that chains the rows.

A record is stored as its kind (:data:`banker.journal.records.KINDS`) and a body:
JSON with sorted keys, compact separators and ASCII only, so one record has
exactly one body text. The encoder and the decoder of each kind are derived
from the record types themselves (their dataclass fields, annotations and
the :data:`banker.journal.records.ROWS` mark, as :mod:`banker.journal.records` describes),
so a new kind needs nothing here. The record's own ``time`` is kept beside
the body (the row's ``time`` column); times of transactions nested in a
record (an enrolment's opening, a new game's openings, a checkpoint's last
transaction) are in the body. Decoding checks every value's type and gives
back equal dataclasses.

>>> from banker.journal.records import Rename
>>> encode(Rename(3, "Cleo"))
('rename', '{"card_id":3,"name":"Cleo"}')
>>> decode("rename", '{"card_id":3,"name":"Cleo"}', seq=7, time=1.5)
Rename(card_id=3, name='Cleo', time=1.5)
"""

from __future__ import annotations

import functools
import hashlib
import json
import struct
import types
import typing
from dataclasses import MISSING, fields, is_dataclass
from typing import Any
from collections.abc import Callable

from banker.errors import CorruptLedger
from banker.journal.records import KINDS, ROWS, WHEN_SET, EstateChange, Record, Transaction, stamped  # noqa: F401  (stamped: the stores)

_TYPES = {kind: cls for cls, kind in KINDS.items()}
_CHAIN_DOMAIN = b"banker-journal-v2\n"
_KEYED_DOMAIN = b"banker-journal-v3\n"
#: The name a :class:`~banker.journal.records.ChainStart` gives the unkeyed chain of schema 2 (and migrated v1) rows.
V2_SCHEME = "sha256-v2"


# -- stamping and the chain -------------------------------------------------------------------


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
    inner, outer = _hmac_pads(key)
    inner = inner.copy()
    inner.update(b"".join((bytes.fromhex(previous), _HEADER(seq, -1 if game is None else game,
                                                            -1 if tx is None else tx, time, len(kind_bytes),
                                                            len(body_bytes)), kind_bytes, body_bytes)))
    outer = outer.copy()
    outer.update(inner.digest())
    return outer.hexdigest()


@functools.lru_cache(maxsize=16)
def _hmac_pads(key: bytes) -> tuple[Any, Any]:
    """HMAC-SHA256 under ``key`` (RFC 2104) with its two padded keys hashed once: the inner hash has taken the
    domain too. Each row then only copies them (``hmac.digest`` sets up OpenSSL's HMAC afresh every call, which
    costs twice the hashing of a row)."""
    block = hashlib.sha256().block_size
    padded = (hashlib.sha256(key).digest() if len(key) > block else key).ljust(block, b"\0")
    inner = hashlib.sha256(bytes(b ^ 0x36 for b in padded) + _KEYED_DOMAIN)
    outer = hashlib.sha256(bytes(b ^ 0x5C for b in padded))
    return inner, outer


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


# -- the shape of each record, derived from its type ------------------------------------------


class _Malformed(ValueError):
    pass


_NONE = type(None)
_WHAT = {int: "a whole number", str: "text", bool: "true or false", float: "a time", _NONE: "null"}
Encoder = Callable[[Any], Any]
Decoder = Callable[[Any], Any]


def _members(hint: Any) -> tuple | None:
    """The types a ``X | Y`` or ``Union[X, Y]`` annotation allows, or None for any other annotation."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return typing.get_args(hint)
    return None


def _fields_of(cls: type) -> list[tuple[str, Any, bool]]:
    """Each field of the record type ``cls``: its name, its annotation, whether its records are stored as rows."""
    hints = typing.get_type_hints(cls)
    return [(f.name, hints[f.name], f.metadata.get("stored") == ROWS["stored"]) for f in fields(cls)]


def _encoder(hint: Any, rows: bool) -> Encoder | None:
    """How a value annotated ``hint`` becomes JSON (None: as it is)."""
    members = _members(hint)
    if members is not None:
        return _union_encoder([m for m in members if m is not _NONE], rows)
    if typing.get_origin(hint) is tuple:
        return _tuple_encoder(typing.get_args(hint), rows)
    if is_dataclass(hint):
        return _row_encoder(hint) if rows else _object_encoder(hint)
    if hint in _WHAT:
        return None
    raise TypeError(f"the store cannot hold a {hint!r}")


def _union_encoder(kinds: list, rows: bool) -> Encoder | None:
    """How a value of one of ``kinds`` (or None) becomes JSON: several record kinds as rows headed by their word."""
    if len(kinds) > 1:
        row_of = {kind: _row_encoder(kind) for kind in kinds}
        return lambda v: [v.word, *row_of[type(v)](v)]
    inner = _encoder(kinds[0], rows)
    return None if inner is None else (lambda v: None if v is None else inner(v))


def _tuple_encoder(args: tuple, rows: bool) -> Encoder:
    """How a tuple annotated ``tuple[args]`` becomes a JSON list (of any length: ``tuple[X, ...]``)."""
    if len(args) == 2 and args[1] is Ellipsis:
        each = _encoder(args[0], rows)
        return list if each is None else (lambda v: [each(x) for x in v])
    encoders = [_encoder(a, rows) for a in args]
    if not any(encoders):
        return list
    return lambda v: [x if enc is None else enc(x) for enc, x in zip(encoders, v)]


def _object_encoder(cls: type, skip: tuple[str, ...] = ()) -> Encoder:
    specs = [(name, _encoder(hint, rows)) for name, hint, rows in _fields_of(cls) if name not in skip]
    unset = {f.name for f in fields(cls) if f.metadata.get("stored") == WHEN_SET["stored"]}  # left out while None
    if unset:
        return lambda v: {name: getattr(v, name) if enc is None else enc(getattr(v, name)) for name, enc in specs
                          if name not in unset or getattr(v, name) is not None}
    return lambda v: {name: getattr(v, name) if enc is None else enc(getattr(v, name)) for name, enc in specs}


def _row_encoder(cls: type) -> Encoder:
    specs = [(name, _encoder(hint, rows)) for name, hint, rows in _fields_of(cls)]
    return lambda v: [getattr(v, name) if enc is None else enc(getattr(v, name)) for name, enc in specs]


def _decoder(hint: Any, rows: bool) -> tuple[tuple[type, ...] | None, Decoder | None]:
    """How a value annotated ``hint`` is read back: the plain types it may be (checked inline), or a decoder."""
    members = _members(hint)
    if members is not None:
        kinds = [m for m in members if m is not _NONE]
        if len(kinds) > 1:
            return None, _tagged_decoder(kinds)
        plain, inner = _decoder(kinds[0], rows)
        if plain is not None:
            return plain + (_NONE,), None
        return None, lambda v: None if v is None else inner(v)
    if typing.get_origin(hint) is tuple:
        return None, _tuple_decoder(typing.get_args(hint), rows)
    if is_dataclass(hint):
        return None, (_row_decoder(hint) if rows else _object_decoder(hint))
    if hint is float:
        return None, _float
    if hint in _WHAT:
        return (hint,), None
    raise TypeError(f"the store cannot hold a {hint!r}")


def _tuple_decoder(args: tuple, rows: bool) -> Decoder:
    if len(args) == 2 and args[1] is Ellipsis:
        plain, each = _decoder(args[0], rows)
        if plain is not None:
            return functools.partial(_plain_tuple, plain=plain)

        def sequence(v: Any) -> tuple:
            if type(v) is not list:
                raise _Malformed(f"expected a list, found {v!r}")
            return tuple(map(each, v))
        sequence.each = each  # type: ignore[attr-defined]  # a compiled decoder maps it inline
        return sequence
    return _fixed_tuple_decoder([_decoder(a, rows) for a in args])


def _plain_tuple(v: Any, plain: tuple[type, ...]) -> tuple:
    """A list of plain values (each of the ``plain`` types) as a tuple."""
    if type(v) is not list:
        raise _Malformed(f"expected a list, found {v!r}")
    for x in v:
        if type(x) not in plain:
            raise _Malformed(_expected(plain, x))
    return tuple(v)


def _fixed_tuple_decoder(specs: list) -> Decoder:
    """A fixed tuple (``tuple[int, int]``: a balance, a worth) read from a list of exactly its length, written out
    like :func:`_compiled` (a snapshot holds hundreds of them). Made of indices only, never of stored data."""
    n = len(specs)
    names = [f"a{i}" for i in range(n)]
    lines = ["def decoder(v):",
             f"    if type(v) is not list or len(v) != {n}:",
             f"        raise _Malformed(f'expected a list of {n}, found {{v!r}}')"]
    if n:
        lines.append(f"    {', '.join(names)}, = v")
    env: dict[str, Any] = {"_Malformed": _Malformed, "_expected": _expected}
    for i, (plain, inner) in enumerate(specs):
        env[f"P{i}"], env[f"I{i}"] = plain, inner
        if inner is not None:
            lines.append(f"    a{i} = I{i}(a{i})")
        else:
            lines += [f"    if type(a{i}) not in P{i}:", f"        raise _Malformed(_expected(P{i}, a{i}))"]
    lines.append(f"    return ({''.join(f'{name}, ' for name in names)})")
    exec("\n".join(lines), env)
    return env["decoder"]


def _object_decoder(cls: type, skip: tuple[str, ...] = ()) -> Decoder:
    """A record stored as an object: exactly its fields by name (one with a default may be missing)."""
    fs = [(name, *_decoder(hint, rows)) for name, hint, rows in _fields_of(cls) if name not in skip]
    names = frozenset(name for name, _plain, _inner in fs)
    defaults = {f.name: f for f in fields(cls) if f.default is not MISSING or f.default_factory is not MISSING}
    head = ["def decoder(v):",
            "    if type(v) is not dict:",
            "        raise _Malformed(f'expected an object, found {v!r}')",
            "    if v.keys() != NAMES:",
            "        v = _filled(v, NAMES, REQUIRED, DEFAULTS)"]
    env = {"NAMES": names, "REQUIRED": names - set(defaults), "DEFAULTS": defaults}
    return _compiled(cls, head, [f"v[{name!r}]" for name, _p, _i in fs], fs, env)


def _row_decoder(cls: type) -> Decoder:
    """A record stored as a row: exactly its fields, in order (after ``start`` values: a word)."""
    fs = [(name, *_decoder(hint, rows)) for name, hint, rows in _fields_of(cls)]
    head = ["def decoder(v, start=0):",
            f"    if type(v) is not list or len(v) != start + {len(fs)}:",
            f"        raise _Malformed(f'expected {len(fs)} values, found {{v!r}}')",
            f"    {''.join(f'a{i}, ' for i in range(len(fs)))}= v[start:] if start else v" if fs else ""]
    return _compiled(cls, head, [f"a{i}" for i in range(len(fs))], fs, {})


def _compiled(cls: type, head: list[str], sources: list[str], fs: list, env: dict) -> Decoder:
    """The decoder whose first lines are ``head``, then each field read from its source and checked, written
    out in full as :mod:`dataclasses` writes ``__init__`` (verify reads every row: no loop, no call per plain
    value). The source is made of field names and indices only, never of stored data."""
    lines = list(head)
    for i, ((_name, plain, inner), source) in enumerate(zip(fs, sources)):
        env[f"P{i}"], env[f"I{i}"] = plain, inner
        if getattr(inner, "each", None) is not None:
            env[f"E{i}"] = inner.each
            lines += [f"    x{i} = {source}",
                      f"    x{i} = tuple(map(E{i}, x{i})) if type(x{i}) is list else I{i}(x{i})"]
        elif inner is not None:
            lines.append(f"    x{i} = I{i}({source})")
        else:
            lines += [f"    x{i} = {source}",
                      f"    if type(x{i}) not in P{i}:",
                      f"        raise _Malformed(_expected(P{i}, x{i}))"]
    lines.append("    record = new(cls)")
    lines.append(f"    record.__dict__.update({', '.join(f'{name}=x{i}' for i, (name, _p, _n) in enumerate(fs))})")
    if getattr(cls, "__post_init__", None) is not None:
        lines.append("    record.__post_init__()")
    lines.append("    return record")
    env.update(cls=cls, new=object.__new__, _Malformed=_Malformed, _expected=_expected, _filled=_filled)
    exec("\n".join(lines), env)
    return env["decoder"]


def _tagged_decoder(kinds: list[type]) -> Decoder:
    """One of several record kinds, stored as a row headed by its word."""
    by_word = {kind.word: _row_decoder(kind) for kind in kinds}

    def decoder(v: Any) -> Any:
        row = by_word.get(v[0]) if type(v) is list and v and type(v[0]) is str else None
        if row is None:
            raise _Malformed(f"not a known change: {v!r}")
        return row(v, 1)
    return decoder


def _filled(v: dict, names: frozenset, required: frozenset, defaults: dict) -> dict:
    """An object's fields with the defaults of those missing, or :class:`_Malformed` naming what is amiss."""
    missing, extra = required - v.keys(), v.keys() - names
    if missing or extra:
        raise _Malformed(f"fields {sorted(missing)} missing, {sorted(extra)} unexpected")
    filled = dict(v)
    for name in names - v.keys():
        f = defaults[name]
        filled[name] = f.default if f.default is not MISSING else f.default_factory()
    return filled


def _expected(plain: tuple[type, ...], found: Any) -> str:
    return f"expected {' or '.join(_WHAT[t] for t in plain)}, found {found!r}"


def _float(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Malformed(f"expected a time, found {value!r}")
    return float(value)


# -- encoding and decoding --------------------------------------------------------------------


_ENCODERS: dict[type, Encoder] = {}
_DECODERS: dict[type, Decoder] = {}
_CHANGES = _tuple_decoder((EstateChange, Ellipsis), True)


def _coders(cls: type) -> tuple[Encoder, Decoder]:
    """The encoder and decoder of the record kind ``cls`` (its own ``time`` is the row's), derived once."""
    if cls not in _ENCODERS:
        _ENCODERS[cls], _DECODERS[cls] = _object_encoder(cls, skip=("time",)), _object_decoder(cls, skip=("time",))
    return _ENCODERS[cls], _DECODERS[cls]


def encode(record: Record) -> tuple[str, str]:
    """The record's kind and canonical body text (its own ``time`` is not in the body)."""
    kind = KINDS.get(type(record))
    if kind is None:
        raise TypeError(f"not a journal record: {record!r}")
    return kind, canonical(_coders(type(record))[0](record))


def canonical(value: Any) -> str:
    """The one JSON text of ``value``: sorted keys, no spaces, ASCII, no NaN."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def decode(kind: str, body: str, *, seq: int, time: float | None) -> Record:
    """The record stored as ``kind`` and ``body`` in row ``seq``; :class:`CorruptLedger` naming the row if not."""
    cls = next((c for c, word in KINDS.items() if word == kind), None)
    if cls is None:
        raise CorruptLedger(f"journal entry {seq} has an unknown kind {kind!r}: a newer banker's ledger?")
    try:
        record = _coders(cls)[1](json.loads(body))
        record.__dict__["time"] = None if time is None else _float(time)  # a fresh value, seen by no one yet
        return record
    except (ValueError, TypeError, KeyError) as exc:
        raise CorruptLedger(f"journal entry {seq} ({kind}) cannot be read: {exc}") from exc


def decode_changes(value: Any) -> tuple[EstateChange, ...]:
    """Estate changes stored as rows (``[["owner", slug, before, after], ...]``); ValueError if they are not."""
    return _CHANGES(value)
