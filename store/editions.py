"""The deed sets the store needs (to migrate and verify), loaded through one function.

Where the edition files are read from is this module's one import line.
"""

from __future__ import annotations

from collections.abc import Iterable

from banker.rules.deeds import Edition
from banker.errors import BankerError


def load_edition(name: str) -> Edition:
    """The edition ``name`` (``cards/editions/NAME.toml``); :class:`banker.errors.ConfigError` if unknown."""
    from cards import load_edition as load

    return load(name)


def editions_for(names: Iterable[str]) -> dict[str, Edition]:
    """The editions among ``names`` that this banker has (an unknown one is left out)."""
    found: dict[str, Edition] = {}
    for name in names:
        try:
            found[name] = load_edition(name)
        except BankerError:  # an unknown or unreadable edition: the audit names it
            continue
    return found


def all_editions() -> dict[str, Edition]:
    """Every edition this banker has (what an audit of any ledger may need)."""
    from cards import available_editions

    return editions_for(available_editions())
