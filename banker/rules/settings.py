"""The table's rule options (house rules and shorter games) that the rules engine obeys."""

from __future__ import annotations

from dataclasses import dataclass

from banker.errors import ConfigError


@dataclass(frozen=True)
class RuleSettings:
    """House rules for one game; the defaults are the official rules.

    ``allow_negative``: payments may take a balance below zero instead of
    being refused for insufficient funds.
    ``houses_for_hotel``: houses needed on every lot of a group before a
    hotel (4; 3 in the short game). A lot then holds at most that many
    houses, and a hotel costs (and is valued at) that many houses plus one.
    ``income_tax_choice``: the older rule letting a player pay the edition's
    percentage (10%) of their total worth instead of the flat Income Tax.
    ``luxury_tax``: override the edition's Luxury Tax (older sets: 750K);
    None keeps the edition's amount.
    ``jackpot``: the Free Parking house rule's seed (None: no pot): taxes and
    the jail fine go into the pot (:data:`banker.journal.records.POT`) instead of the
    bank, and the bank puts the seed back each time the pot is taken.
    """

    allow_negative: bool = False
    houses_for_hotel: int = 4
    income_tax_choice: bool = False
    luxury_tax: int | None = None
    jackpot: int | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.houses_for_hotel <= 4:
            raise ConfigError("houses_for_hotel must be 1-4")
        if self.luxury_tax is not None and self.luxury_tax <= 0:
            raise ConfigError("luxury_tax must be positive")


#: The official rules.
STANDARD = RuleSettings()
#: The short game's building rule (hotel after 3 houses).
SHORT_GAME = RuleSettings(houses_for_hotel=3)
