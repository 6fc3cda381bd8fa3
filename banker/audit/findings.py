"""What an audit of a journal finds, as data: problems (each naming its entry) and each game's money.

The checks are :func:`banker.audit.checks.audit_records` (the records'
content) and the store's chain check (``store.walks.verify_rows``), so
``banker ledger verify`` can name every offending entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field



@dataclass(frozen=True)
class Problem:
    """Something wrong with transaction ``tx`` (None: with the journal as a whole)."""

    tx: int | None
    message: str

    def __str__(self) -> str:
        return f"#{self.tx}: {self.message}" if self.tx is not None else self.message


@dataclass
class GameTotals:
    """Money in one game: what the bank issued and took back, what the players hold."""

    issued: int = 0
    returned: int = 0
    players: dict[int, int] = field(default_factory=dict)

    @property
    def held(self) -> int:
        return sum(self.players.values())


@dataclass
class Audit:
    problems: list[Problem]
    games: dict[int, GameTotals]
    transactions: int
    #: What verify says every time though nothing is wrong (rows on an earlier release's unkeyed chain, a journal
    #: the banker accepted as it stood).
    notices: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems
