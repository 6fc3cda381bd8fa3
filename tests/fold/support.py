"""The whole fold as the tests' reference: each game's last state, read from every record."""

from __future__ import annotations

from banker.fold.history import game_states


def last_states(records, *, editions) -> dict:
    """Each game's state as it was when last played (the current one: now), by game id: the checkpoint the
    restore must find without folding the whole journal."""
    return {gid: last.checkpoint() for gid, (_, last) in game_states(records, editions=editions).items()}
