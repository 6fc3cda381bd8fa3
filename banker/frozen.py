"""A frozen record copied with some fields changed: :func:`dataclasses.replace`, without its cost per call.

``dataclasses.replace`` reads every field of the record with ``getattr`` and
runs the generated ``__init__`` again; a payment on the unit makes some
forty such copies (its panel, its outcome, a reply, the game the fold
gives), a tenth of the core's time (benchmarks/bench_payment.py). A record whose class
builds it with the generated ``__init__`` alone (no ``__post_init__``, every
field in ``__init__``, no slots) is copied here by its ``__dict__``: the same
values, the same equality and hash, five times faster. Any other record,
and a change naming no field of it, goes to ``dataclasses.replace`` itself,
which checks and raises as ever.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Point:
...     x: int
...     y: int = 0
>>> replace(Point(1, 2), y=5)
Point(x=1, y=5)
>>> replace(Point(1), z=3)
Traceback (most recent call last):
TypeError: Point.__init__() got an unexpected keyword argument 'z'
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")

#: By class: the names of its fields when a copy by ``__dict__`` is the same as ``dataclasses.replace``'s, else None.
_PLAIN: dict[type, frozenset[str] | None] = {}


def replace(record: T, /, **changes: Any) -> T:
    """``record`` with ``changes``: as :func:`dataclasses.replace` gives it."""
    cls = record.__class__
    try:
        names = _PLAIN[cls]
    except KeyError:
        names = _PLAIN[cls] = _plain_fields(cls)
    if names is None or not changes.keys() <= names:
        return dataclasses.replace(record, **changes)
    copy = object.__new__(cls)
    values = copy.__dict__
    values.update(record.__dict__)
    values.update(changes)
    return copy


def _plain_fields(cls: type) -> frozenset[str] | None:
    """The fields of a dataclass its generated ``__init__`` alone builds, or None (not a dataclass, a
    ``__post_init__``, a field outside ``__init__``, slots, no generated ``__init__``)."""
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        return None
    if not cls.__dataclass_params__.init:
        return None
    fields = dataclasses.fields(cls)
    if any(not f.init for f in fields):
        return None
    return frozenset(f.name for f in fields)
