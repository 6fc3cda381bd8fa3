"""Title deeds and editions of the board, parsed from the text of an edition file (``cards/editions``).

An edition is pure data: its deeds (price, rents, house cost, mortgage) and
its fixed amounts (start balance, GO salary, taxes, jail fine) and stock
(houses, hotels, Get Out of Jail Free cards). The files keep the classic
printed values and a ``scale``; amounts here are already scaled, in dollars::

    >>> from cards import load_edition
    >>> us = load_edition("us")
    >>> us.deed("boardwalk").price
    4000000
    >>> us.at(1).name
    'Mediterranean Avenue'
    >>> [d.slug for d in us.group("brown")]
    ['mediterranean-avenue', 'baltic-avenue']
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal
from collections.abc import Iterable, Mapping

from banker.errors import BankerError, ConfigError
from banker.text.i18n import LANGUAGES
from banker.text.words import did_you_mean

Kind = Literal["street", "railroad", "utility"]
KINDS: tuple[str, ...] = ("street", "railroad", "utility")
#: How many rents each kind of deed lists (see the header of an edition file).
RENT_COUNT = {"street": 6, "railroad": 4, "utility": 2}
#: The longest short name, so that "Mortgaged " + short fits a 21-character line.
SHORT_NAME_WIDTH = 11
#: The board's squares that are no deed, by their key in an edition's ``[squares]``, with their English names (the
#: names of an edition that gives none).
SQUARE_NAMES: Mapping[str, str] = MappingProxyType({
    "go": "GO", "income_tax": "Income Tax", "luxury_tax": "Luxury Tax", "jail": "Jail",
    "free_parking": "Free Parking", "go_to_jail": "Go to Jail", "chance": "Chance",
    "community_chest": "Community Chest"})


class UnknownDeed(BankerError, LookupError):
    """No deed has that slug or stands on that board position."""


@dataclass(frozen=True)
class Deed:
    """One title deed, amounts in dollars at the edition's scale.

    ``rents`` is, for a street, (unimproved, 1-4 houses, hotel); for a
    railroad, the rent with 1-4 railroads owned; for a utility, the dice
    multiplier with one and with both owned. ``house_cost`` is 0 except on
    streets.
    """

    position: int
    slug: str
    name: str
    short: str
    group: str
    kind: Kind
    price: int
    rents: tuple[int, ...]
    house_cost: int
    mortgage: int

    @property
    def is_street(self) -> bool:
        """Whether houses and hotels can stand on this deed."""
        return self.kind == "street"


@dataclass(frozen=True)
class Edition:
    """A board: its deeds in board order and its fixed amounts (dollars) and stock."""

    name: str
    title: str
    deeds: tuple[Deed, ...]
    start_balance: int
    go_salary: int
    jail_fine: int
    income_tax: int
    income_tax_percent: int
    luxury_tax: int
    interest_percent: int
    interest_round_to: int
    houses: int
    hotels: int
    jail_cards: int
    #: The language the edition suggests for a game (:data:`banker.text.i18n.LANGUAGES`).
    language: str = "en"
    #: The names of the squares that are no deed (:data:`SQUARE_NAMES`' keys), as the board prints them.
    squares: Mapping[str, str] = field(default_factory=lambda: SQUARE_NAMES, hash=False)
    _by_slug: dict[str, Deed] = field(init=False, repr=False, compare=False)
    _by_position: dict[int, Deed] = field(init=False, repr=False, compare=False)
    _groups: dict[str, tuple[Deed, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        groups: dict[str, list[Deed]] = {}
        for deed in self.deeds:
            groups.setdefault(deed.group, []).append(deed)
        object.__setattr__(self, "_by_slug", {d.slug: d for d in self.deeds})
        object.__setattr__(self, "_by_position", {d.position: d for d in self.deeds})
        object.__setattr__(self, "_groups", {g: tuple(ds) for g, ds in groups.items()})

    def deed(self, slug: str) -> Deed:
        """The deed with this slug; :class:`UnknownDeed` if there is none."""
        try:
            return self._by_slug[slug]
        except KeyError:
            raise UnknownDeed(f"No deed {slug!r}{did_you_mean(slug, self._by_slug)}") from None

    def find(self, slug: str) -> Deed | None:
        """The deed with this slug, None if this board has none (no message built: a tag of another board)."""
        return self._by_slug.get(slug)

    def find_at(self, position: int) -> Deed | None:
        """The deed on board position ``position``, None on a square with no deed."""
        return self._by_position.get(position)

    def in_board_order(self, slugs: Iterable[str]) -> tuple[Deed, ...]:
        """The deeds of ``slugs`` in board order; a slug of no deed of this board is left out."""
        found = [deed for deed in map(self._by_slug.get, slugs) if deed is not None]
        return tuple(sorted(found, key=_position)) if len(found) > 1 else tuple(found)

    def at(self, position: int) -> Deed:
        """The deed on board position ``position`` (1-39); :class:`UnknownDeed` on other squares."""
        try:
            return self._by_position[position]
        except KeyError:
            raise UnknownDeed(f"No deed at {position:02d}") from None

    def group(self, group: str) -> tuple[Deed, ...]:
        """Every deed of a colour group (or of ``railroad`` / ``utility``), in board order."""
        try:
            return self._groups[group]
        except KeyError:
            raise UnknownDeed(f"No group {group!r}") from None

    def siblings(self, slug: str) -> tuple[Deed, ...]:
        """Every deed of the group ``slug`` belongs to, itself included."""
        return self._groups[self.deed(slug).group]

    @property
    def groups(self) -> tuple[str, ...]:
        """The group names in board order."""
        return tuple(self._groups)


def _position(deed: Deed) -> int:
    return deed.position


def parse_edition(text: str) -> Edition:
    """Build an :class:`Edition` from the text of an edition file (see ``cards/editions/us.toml``)."""
    try:
        data = tomllib.loads(text)
        scale = _positive(data, "scale")
        money, rates, stock = data["money"], data["rates"], data["stock"]
        deeds = tuple(sorted((_deed(row, scale) for row in data["deeds"]), key=lambda d: d.position))
        edition = Edition(
            name=data["name"],
            title=data.get("title", data["name"]),
            deeds=deeds,
            start_balance=_positive(money, "start_balance") * scale,
            go_salary=_positive(money, "go_salary") * scale,
            jail_fine=_positive(money, "jail_fine") * scale,
            income_tax=_positive(money, "income_tax") * scale,
            luxury_tax=_positive(money, "luxury_tax") * scale,
            interest_round_to=_positive(money, "interest_round_to") * scale,
            income_tax_percent=_positive(rates, "income_tax_percent"),
            interest_percent=_positive(rates, "interest_percent"),
            houses=_positive(stock, "houses"),
            hotels=_positive(stock, "hotels"),
            jail_cards=_positive(stock, "jail_cards"),
            language=_language(data.get("language", "en")),
            squares=_squares(data.get("squares", {})),
        )
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"bad edition file: {exc}") from exc
    _check_unique(edition)
    return edition


def _deed(row: dict[str, Any], scale: int) -> Deed:
    kind = row["kind"]
    if kind not in KINDS:
        raise ValueError(f"{row['slug']}: kind must be one of {KINDS}")
    rents = tuple(_whole(r) * scale for r in row["rents"])
    if len(rents) != RENT_COUNT[kind]:
        raise ValueError(f"{row['slug']}: a {kind} lists {RENT_COUNT[kind]} rents")
    if len(row["short"]) > SHORT_NAME_WIDTH:
        raise ValueError(f"{row['slug']}: short name longer than {SHORT_NAME_WIDTH}")
    position = _positive(row, "position")
    if position > 39:
        raise ValueError(f"{row['slug']}: position must be 1-39")
    return Deed(
        position=position,
        slug=row["slug"],
        name=row["name"],
        short=row["short"],
        group=row["group"],
        kind=kind,
        price=_positive(row, "price") * scale,
        rents=rents,
        house_cost=_positive(row, "house_cost") * scale if kind == "street" else 0,
        mortgage=_positive(row, "mortgage") * scale,
    )


def _language(code: Any) -> str:
    if code not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {code!r}")
    return code


def _squares(table: Any) -> Mapping[str, str]:
    """The ``[squares]`` table over the English names: a key it leaves out keeps its English name."""
    if not isinstance(table, dict):
        raise TypeError("[squares] must be a table")
    unknown = sorted(set(table) - set(SQUARE_NAMES))
    if unknown:
        raise ValueError(f"unknown square {unknown[0]!r} in [squares] (known: {', '.join(SQUARE_NAMES)})")
    for key, name in table.items():
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"square {key}: its name must be some text")
    return MappingProxyType({**SQUARE_NAMES, **table})


def _positive(table: dict[str, Any], key: str) -> int:
    value = _whole(table[key])
    if value <= 0:
        raise ValueError(f"{key} must be positive")
    return value


def _whole(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected a whole number, got {value!r}")
    return value


def _check_unique(edition: Edition) -> None:
    if len(edition._by_slug) != len(edition.deeds):
        raise ConfigError(f"edition {edition.name}: two deeds share a slug")
    if len(edition._by_position) != len(edition.deeds):
        raise ConfigError(f"edition {edition.name}: two deeds share a position")
    for name, deeds in edition._groups.items():
        if len({d.kind for d in deeds}) != 1:
            raise ConfigError(f"edition {edition.name}: group {name} mixes kinds")
