"""A simulated chip's log that keeps only its newest entries: a long ``hw-sim`` run's memory stays flat.

:class:`RecentLog` reads like the whole log, indexed from its first entry
ever (``log[count_before:]`` is what came since), but remembers only the
last ``keep`` entries: ``len()`` counts every entry ever appended, iterating
and comparing see the entries kept, and an index forgotten is an
:class:`IndexError` (a slice starts at the oldest entry kept).

>>> log = RecentLog(keep=3)
>>> for n in range(5):
...     log.append(n)
>>> len(log), list(log), log[-1], log[3:]
(5, [2, 3, 4], 4, [3, 4])
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Any


class RecentLog:
    """The last ``keep`` entries of an append-only log, with the count of every entry ever appended."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._entries: deque = deque(maxlen=keep)
        self._count = 0

    def append(self, entry: Any) -> None:
        self._entries.append(entry)
        self._count += 1

    def clear(self) -> None:
        self._entries.clear()

    @property
    def forgotten(self) -> int:
        """Entries no longer kept (the oldest)."""
        return self._count - len(self._entries)

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator:
        return iter(self._entries)

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(self._count)
            if step != 1:
                return list(self)[index]
            first = max(start, self.forgotten) - self.forgotten
            return [self._entries[i] for i in range(first, max(first, stop - self.forgotten))]
        if index < 0:
            index += self._count
        if not self.forgotten <= index < self._count:
            raise IndexError(f"log entry {index} is not kept (the last {self.keep} are)")
        return self._entries[index - self.forgotten]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RecentLog):
            return list(self) == list(other) and len(self) == len(other)
        if isinstance(other, list):
            return list(self) == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"RecentLog(keep={self.keep}, count={self._count}, last={list(self)[-3:]!r})"
