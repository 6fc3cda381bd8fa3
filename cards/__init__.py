"""Game data packaged with the banker: editions of the board (deeds and fixed amounts) in ``editions/``.

Reading the files is I/O, so it lives here and not in the pure core: the
core parses an edition's text (:func:`banker.rules.deeds.parse_edition`) and a
game is given the parsed editions (:func:`editions`) once.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from types import MappingProxyType
from collections.abc import Mapping

from banker.rules.deeds import Edition, parse_edition
from banker.errors import ConfigError


@cache
def load_edition(name: str = "us") -> Edition:
    """Read the edition ``cards/editions/<name>.toml`` packaged with the banker (parsed once per process).

    :class:`ConfigError` if there is no such edition or its file is not valid.
    """
    resource = files("cards").joinpath("editions", f"{check_edition(name)}.toml")
    return parse_edition(resource.read_text(encoding="utf-8"))


def check_edition(name: str) -> str:
    """``name`` if it is one of :func:`available_editions`; else :class:`ConfigError` naming those known. The one
    rule for an edition's name: never a path (``../x``, ``/tmp/x``), which would read any TOML file it names."""
    known = available_editions()
    if name not in known:
        raise ConfigError(f"no edition {name!r} (known: {', '.join(known)})")
    return name


def available_editions() -> tuple[str, ...]:
    """The names of the editions packaged in ``cards/editions``."""
    folder = files("cards").joinpath("editions")
    return tuple(sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml")))


def editions() -> Mapping[str, Edition]:
    """Every packaged edition, parsed: what a game is replayed with."""
    return MappingProxyType({name: load_edition(name) for name in available_editions()})
