"""The estate record and its reversible changes: apply, reverse, replay, typed values, conflicts."""

import pytest

from cards import load_edition
from banker.errors import Refused
from banker.journal.records import HousesChange, JailCardChange, MortgageChange, OwnerChange
from banker.rules import HOTEL, Estate, EstateConflict, apply, replay, reverse

us = load_edition("us")
new = Estate.new(us)


def test_a_new_game_leaves_every_deed_house_hotel_and_jail_card_with_the_bank():
    assert all(new.owner(d.slug) is None for d in us.deeds)
    assert (new.houses_in_bank, new.hotels_in_bank) == (32, 12)
    assert new.jail_cards_of(None) == 2


def test_an_owner_change_records_who_had_it_before():
    estate = apply(new, [OwnerChange("boardwalk", None, 1)])
    assert estate.owner("boardwalk") == 1
    assert new.owner("boardwalk") is None  # the old estate is untouched
    assert estate.deeds_of(1) == ("boardwalk",)


def test_houses_on_the_board_come_out_of_the_bank_and_a_hotel_gives_its_houses_back():
    estate = apply(new, [OwnerChange("boardwalk", None, 1), HousesChange("boardwalk", 0, 4)])
    assert estate.houses_in_bank == 28
    estate = apply(estate, [HousesChange("boardwalk", 4, HOTEL)])
    assert (estate.houses_in_bank, estate.hotels_in_bank) == (32, 11)


def test_reversing_changes_restores_the_estate():
    changes = [
        OwnerChange("boardwalk", None, 1),
        HousesChange("boardwalk", 0, 2),
        JailCardChange(None, 1),
    ]
    estate = apply(new, changes)
    assert apply(estate, reverse(changes)) == new


def test_reverse_swaps_before_and_after_last_first():
    assert reverse([OwnerChange("a", None, 1), MortgageChange("a", False, True)]) == (
        MortgageChange("a", True, False),
        OwnerChange("a", 1, None),
    )


def test_changes_are_values_compared_by_what_they_change():
    assert OwnerChange("boardwalk", None, 1) == OwnerChange("boardwalk", None, 1)
    assert OwnerChange("boardwalk", None, 1) != JailCardChange(None, 1)
    assert {OwnerChange("boardwalk", None, 1), OwnerChange("boardwalk", None, 1)} == {OwnerChange("boardwalk", None, 1)}


def test_a_stale_change_is_refused_and_nothing_applied():
    estate = apply(new, [OwnerChange("boardwalk", None, 1)])
    with pytest.raises(EstateConflict, match="expects"):
        apply(estate, [OwnerChange("park-place", None, 2), OwnerChange("boardwalk", None, 2)])
    assert issubclass(EstateConflict, Refused)


def test_buildings_on_an_unsold_deed_break_the_estate():
    with pytest.raises(EstateConflict, match="unsold"):
        apply(new, [HousesChange("boardwalk", 0, 1)])


def test_a_mortgaged_lot_cannot_hold_buildings():
    with pytest.raises(EstateConflict):
        apply(new, [OwnerChange("boardwalk", None, 1), HousesChange("boardwalk", 0, 1), MortgageChange("boardwalk", False, True)])


def test_only_two_jail_cards_exist():
    estate = apply(new, [JailCardChange(None, 1), JailCardChange(None, 2)])
    assert estate.jail_cards_of(1) == estate.jail_cards_of(2) == 1
    with pytest.raises(EstateConflict):
        apply(estate, [JailCardChange(None, 3)])


def test_a_player_without_a_jail_card_cannot_hand_one_over():
    with pytest.raises(EstateConflict):
        apply(new, [JailCardChange(1, 2)])


def test_an_unknown_change_kind_is_refused():
    with pytest.raises(EstateConflict, match="unknown"):
        apply(new, [("hotels", "boardwalk", 0, 1)])


def test_a_houses_change_beyond_a_hotel_is_refused():
    with pytest.raises(EstateConflict, match="bad houses"):
        apply(new, [OwnerChange("boardwalk", None, 1), HousesChange("boardwalk", 0, HOTEL + 1)])


def test_replaying_a_journal_rebuilds_the_estate():
    journal = [
        [OwnerChange("park-place", None, 1)],
        [OwnerChange("boardwalk", None, 1)],
        [HousesChange("park-place", 0, 1)],
    ]
    estate = replay(us, journal)
    assert estate.houses("park-place") == 1 and estate.owner("boardwalk") == 1
