"""The screens the unit shows: one small function per situation, each returning a Screen."""

from __future__ import annotations

import ipaddress
from dataclasses import replace
from urllib.parse import urlsplit

from .records import Card
from .money import format_amount, format_signed
from .screen import BIG_WIDTH, LINE_WIDTH, Screen
from .words import plural

VOLUME_NAMES = ("off", "low", "medium", "high")


def _fit(text: str, width: int = LINE_WIDTH) -> str:
    """Cut ``text`` to ``width`` characters, marking the cut with ``~``."""
    return text if len(text) <= width else text[: width - 1] + "~"


def fitted(*parts: str) -> str:
    """Parts of one line, two spaces apart when that fits the line, else one."""
    wide = "  ".join(parts)
    return wide if len(wide) <= LINE_WIDTH else " ".join(parts)


def screen(*lines: str, big: int | None = None, error: bool = False) -> Screen:
    """A screen of ``lines``, each fitted to the panel (the ``big`` one to the double-size width)."""
    fitted = tuple(_fit(line, BIG_WIDTH if i == big else LINE_WIDTH) for i, line in enumerate(lines))
    return Screen(lines=fitted, big=big, error=error)


def with_status(s: Screen, *, left: bool, right: bool, volume: int) -> Screen:
    """``s`` with the status bar's indicators filled in."""
    return replace(s, left=left, right=right, volume=volume)


def idle(entry: str | None, modes: str | None = None) -> Screen:
    """No card down: the amount typed, or the welcome (``modes``: the Free Parking pot and the time left)."""
    if entry is not None:
        return screen("Amount", entry, "Insert a card", big=1)
    return screen("Monopoly Bank", "Insert a card", "+ left  - right", *([modes] if modes else []))


def time_warning(seconds: float) -> Screen:
    """The buzzer's warning before a time-limit game ends."""
    minutes = int(seconds // 60)
    return screen("Time limit", plural(minutes, "minute") if minutes else f"{int(seconds)} s", "left to play", big=1)


def time_up(ranked: list[tuple[int, str, int]]) -> Screen:
    """A time-limit game's end: the standings by the end value (``ranked``: place, name, value)."""
    return screen("Time is up!", *(f"{place}. {name} {format_amount(value)}" for place, name, value in ranked[:3]))


def one_card(card: Card, balance: int, reader: str, entry: str | None) -> Screen:
    """A single known card on a reader: its name and balance, or the amount being typed."""
    if reader == "left":
        action = f"Bank pays {card.name}"
    else:
        action = f"{card.name} pays bank"
    if entry is None:
        sign = "+" if reader == "left" else "-"
        return screen(f"{sign} {card.name}", format_amount(balance), action, big=1)
    return screen(action, entry, "then M or K", big=1)


def two_cards(payer: Card, payer_balance: int, payee: Card, payee_balance: int, entry: str | None) -> Screen:
    """A card on each reader: the ``-`` card pays the ``+`` card."""
    title = f"{payer.name} pays {payee.name}"
    if entry is None:
        return screen(title, f"- {payer.name} {format_amount(payer_balance)}", f"+ {payee.name} {format_amount(payee_balance)}")
    return screen(title, entry, f"- {payer.name} {format_amount(payer_balance)}", big=1)


def retired(card: Card) -> Screen:
    """A bankrupt player's card on a reader: it pays and receives nothing more this game."""
    return screen(card.name, "Out of the game", "(bankrupt)", "Take the card away", error=True)


def unknown_card(uid: str) -> Screen:
    return screen("Unknown card", uid, "FN: enrol it", error=True)


def same_card() -> Screen:
    return screen("Same card on", "both readers", "Take one away", error=True)


def received(card: Card, amount: int, balance: int, memo: str) -> Screen:
    return screen(f"{card.name} {format_signed(amount)}", format_amount(balance), memo, big=1)


def paid(card: Card, amount: int, balance: int) -> Screen:
    return screen(f"{card.name} {format_signed(-amount)}", format_amount(balance), f"{card.name} paid bank", big=1)


def transferred(payer: Card, payer_balance: int, payee: Card, payee_balance: int, amount: int) -> Screen:
    return screen(
        f"Paid {format_amount(amount)}",
        f"- {payer.name} {format_amount(payer_balance)}",
        f"+ {payee.name} {format_amount(payee_balance)}",
    )


def refused(*reason: str) -> Screen:
    return screen("Refused", *reason, error=True)


def short_of_funds(card: Card, shortfall: int, balance: int) -> Screen:
    return refused(f"{card.name} short {format_amount(shortfall)}", f"Balance {format_amount(balance)}")


def cancelled(why: str) -> Screen:
    return screen("Cancelled", why, "Nothing paid", error=True)


def not_saved(reason: str) -> Screen:
    return screen("NOT SAVED", "Storage error", "Nothing paid", reason, error=True)


def pin_refused(why: str, locked_for: int) -> Screen:
    """The banker's PIN refused by the write path: wrong, locked for ``locked_for`` s, or not given."""
    if why == "locked":
        return refused("PIN locked", f"try in {locked_for} s")
    return refused("Wrong PIN" if why == "wrong" else "Banker PIN needed")


def volume(level: int) -> Screen:
    return screen("Volume", VOLUME_NAMES[level], big=1)


def new_game(game_id: int, start_balance: int, players: int) -> Screen:
    return screen("New game", f"{format_amount(start_balance)} each", f"Game {game_id}, {plural(players, 'player')}")


def enrolled(card: Card, balance: int) -> Screen:
    return screen("Enrolled", card.name, f"Balance {format_amount(balance)}")


def ledger_refused(old_release: bool) -> Screen:
    """The unit won't play on a ledger its writer refused (docs/security.md): what to run at a computer."""
    if old_release:
        return message("Old ledger", "First, at a computer:", "banker ledger", "upgrade", error=True)
    return message("Ledger refused", "Not the journal kept", "here: see banker", "ledger verify", error=True)


def message(*lines: str, error: bool = False) -> Screen:
    return screen(*lines, error=error)


def sign_of(reader: str) -> str:
    """The slot's sign as printed on the unit: ``+`` for the left reader, ``-`` for the right."""
    return "+" if reader == "left" else "-"


def reader_fault(reader: str, fault: str) -> Screen:
    """A reader that can't read: two cards in its field, or a chip that doesn't answer."""
    sign = sign_of(reader)
    if fault == "two-cards":
        return screen(f"Two cards on {sign}", "Take one away", "Nothing is paid", error=True)
    return screen(f"Reader {sign} not", "answering", "Check its wiring", error=True)


def reader_back(reader: str, restarted: bool) -> Screen:
    sign = sign_of(reader)
    return screen(f"Reader {sign} restarted" if restarted else f"Reader {sign} reads", "Lay the card again"
                  if restarted else "again")


def holding_c(progress: float) -> Screen:
    """``C`` held with no card down: the bar fills over the hold that starts a new game."""
    return replace(screen("New game?", "Keep holding C"), progress=max(0.0, min(1.0, progress)))


def page_reach(url: str) -> str:
    """Who can open the table page at ``url``: ``"lan"`` (a phone on the network); ``"no-network"`` (served on
    every address, but the unit has no network address yet: the runtime then writes the wildcard, ``0.0.0.0``);
    ``"this-computer"`` (a loopback address: only the machine serving it)."""
    host = ""
    try:
        host = urlsplit(url).hostname or ""
        address = ipaddress.ip_address(host)
    except ValueError:
        return "this-computer" if host == "localhost" else "lan"  # a host name a phone may resolve
    if address.is_unspecified:
        return "no-network"
    return "this-computer" if address.is_loopback else "lan"


def join_unreachable(reach: str) -> Screen:
    """``FN K`` when no phone could open the page's address: no code, the reason instead."""
    if reach == "no-network":
        return screen("No network yet", "The code shows once", "the unit is on Wi-Fi", "C: back")
    return screen("Page: this computer", "only. For phones set", "[web] host 0.0.0.0", "C: back")


def join_code(url: str, *lines: str) -> Screen:
    """The table page's address as a QR code, with up to four short lines beside it."""
    from .screen import QR_LINE_WIDTH

    return Screen(lines=tuple(_fit(line, QR_LINE_WIDTH) for line in lines[:4]), qr=url)


ASLEEP = Screen(asleep=True)
