"""The worth chart's trail: each player's total worth after a game's transactions, kept to a bounded number of points.

A :class:`WorthTrail` keeps the points of the transactions whose number is a
multiple of its ``stride`` (a power of two), at most :data:`TRAIL_POINTS` of
them, and always the newest point after them. When one more would go over,
the stride doubles and every other point goes. The points kept depend only
on which transactions were seen, never on where a fold started: a trail
carried in a :class:`banker.journal.records.Snapshot` and followed from there is the
trail a fold from the game's start gives (:mod:`banker.fold.history` builds both).

>>> trail = WorthTrail(1)
>>> for tx in range(1, 501):
...     trail = trail.added(WorthPoint(tx, ((1, tx),)))
>>> trail.stride, len(trail.points), trail.points[-1].tx
(4, 126, 500)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from banker.frozen import replace

#: Points a trail keeps at most (besides the newest): the table page's chart shows about this many.
TRAIL_POINTS = 200

_ROWS = {"stored": "rows"}  # banker.journal.records.ROWS (that module imports this one)


@dataclass(frozen=True)
class WorthPoint:
    """Every playing card's total worth (card id, dollars; cash + deeds + buildings at cost) after transaction ``tx``."""

    tx: int
    worths: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class WorthTrail:
    """The worth points of game ``game``: those whose transaction number is a multiple of ``stride``, then the newest.

    ``broken``: the game's journal did not fold from its start, so the chart
    stops there (the page goes on).
    """

    game: int
    stride: int = 1
    points: tuple[WorthPoint, ...] = field(default=(), metadata=_ROWS)
    broken: bool = False

    @property
    def last_tx(self) -> int:
        """The newest transaction with a point (0: none yet)."""
        return self.points[-1].tx if self.points else 0

    def added(self, point: WorthPoint) -> WorthTrail:
        """The trail with ``point`` (of a transaction after :attr:`last_tx`) as its newest."""
        stride, grid = self.stride, self.points
        if grid and grid[-1].tx % stride:
            grid = grid[:-1]  # the newest point was kept only as the newest
        if point.tx % stride == 0:
            grid += (point,)
            if len(grid) > TRAIL_POINTS:
                stride *= 2
                grid = tuple(p for p in grid if p.tx % stride == 0)
        if not grid or grid[-1] is not point:
            grid += (point,)
        return replace(self, stride=stride, points=grid)

    def stopped(self) -> WorthTrail:
        """The trail as far as it goes, marked broken."""
        return replace(self, broken=True)
