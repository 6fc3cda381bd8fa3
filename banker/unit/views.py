"""The screens the unit shows: one small function per situation, each returning a Screen."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from banker.frozen import replace
from banker.text.i18n import N_, Text, _, _n, cut, joined, one_line
from banker.journal.records import Card
from banker.money import format_amount, format_signed
from banker.text.i18n import LINE_WIDTH
from banker.unit.screen import BIG_WIDTH, Screen

#: The volume's levels as the unit shows them (a big line: 10 characters).
VOLUME_NAMES = (
    # Translators: a big line (10 characters)
    N_("off"),
    # Translators: a big line (10 characters)
    N_("low"),
    # Translators: a big line (10 characters)
    N_("medium"),
    # Translators: a big line (10 characters)
    N_("high"),
)


def _fit(text: str, width: int = LINE_WIDTH) -> str:
    """Cut ``text`` to ``width`` characters, marking the cut with ``~`` (a text to translate: when shown)."""
    return text.fitted(width) if isinstance(text, Text) else cut(text, width)


def fitted(*parts: str) -> str:
    """Parts of one line, two spaces apart when that fits the line, else one (texts: once translated)."""
    if any(isinstance(part, Text) for part in parts):
        return joined(*parts, width=LINE_WIDTH)
    return cut(one_line(parts, LINE_WIDTH), LINE_WIDTH)


def screen(*lines: str, big: int | None = None, error: bool = False) -> Screen:
    """A screen of ``lines``, each fitted to the panel (the ``big`` one to the double-size width)."""
    fitted = tuple(_fit(line, BIG_WIDTH if i == big else LINE_WIDTH) for i, line in enumerate(lines))
    return Screen(lines=fitted, big=big, error=error)


def idle(entry: str | None, modes: str | None = None) -> Screen:
    """No card down: the amount typed, or the welcome (``modes``: the Free Parking pot and the time left)."""
    if entry is not None:
        return screen(_("Amount"), entry, _("Insert a card"), big=1)
    return screen(_("Monopoly Bank"), _("Insert a card"), _("+ left  - right"), *([modes] if modes else []))


def time_warning(seconds: float) -> Screen:
    """The buzzer's warning before a time-limit game ends."""
    minutes = int(seconds // 60)
    # Translators: a big line (10 characters)
    left = _n("{n} minute", "{n} minutes", minutes) if minutes else f"{int(seconds)} s"
    return screen(_("Time limit"), left, _("left to play"), big=1)


def time_up(ranked: list[tuple[int, str, int]]) -> Screen:
    """A time-limit game's end: the standings by the end value (``ranked``: place, name, value)."""
    return screen(_("Time is up!"), *(f"{place}. {name} {format_amount(value)}" for place, name, value in ranked[:3]))


def one_card(card: Card, balance: int, reader: str, entry: str | None) -> Screen:
    """A single known card on a reader: its name and balance, or the amount being typed."""
    if reader == "left":
        action = _("Bank pays {name}", name=card.name)
    else:
        action = _("{name} pays bank", name=card.name)
    if entry is None:
        sign = "+" if reader == "left" else "-"
        return screen(f"{sign} {card.name}", format_amount(balance), action, big=1)
    return screen(action, entry, _("then M or K"), big=1)


def two_cards(payer: Card, payer_balance: int, payee: Card, payee_balance: int, entry: str | None) -> Screen:
    """A card on each reader: the ``-`` card pays the ``+`` card."""
    title = _("{payer} pays {payee}", payer=payer.name, payee=payee.name)
    if entry is None:
        return screen(title, f"- {payer.name} {format_amount(payer_balance)}", f"+ {payee.name} {format_amount(payee_balance)}")
    return screen(title, entry, f"- {payer.name} {format_amount(payer_balance)}", big=1)


def retired(card: Card) -> Screen:
    """A bankrupt player's card on a reader: it pays and receives nothing more this game."""
    return screen(card.name, _("Out of the game"), _("(bankrupt)"), _("Take the card away"), error=True)


def unknown_card(uid: str) -> Screen:
    return screen(_("Unknown card"), uid, _("FN: enrol it"), error=True)


def same_card() -> Screen:
    return screen(_("Same card on"), _("both readers"), _("Take one away"), error=True)


def received(card: Card, amount: int, balance: int, memo: str) -> Screen:
    return screen(f"{card.name} {format_signed(amount)}", format_amount(balance), memo, big=1)


def paid(card: Card, amount: int, balance: int) -> Screen:
    return screen(f"{card.name} {format_signed(-amount)}", format_amount(balance), _("{name} paid bank", name=card.name), big=1)


def transferred(payer: Card, payer_balance: int, payee: Card, payee_balance: int, amount: int) -> Screen:
    return screen(
        _("Paid {amount}", amount=format_amount(amount)),
        f"- {payer.name} {format_amount(payer_balance)}",
        f"+ {payee.name} {format_amount(payee_balance)}",
    )


def refused(*reason: str) -> Screen:
    return screen(_("Refused"), *reason, error=True)


def short_of_funds(card: Card, shortfall: int, balance: int) -> Screen:
    return refused(_("{name} short {amount}", name=card.name, amount=format_amount(shortfall)),
                   _("Balance {amount}", amount=format_amount(balance)))


def cancelled(why: str) -> Screen:
    return screen(_("Cancelled"), why, _("Nothing paid"), error=True)


def not_saved(reason: str) -> Screen:
    return screen(_("NOT SAVED"), _("Storage error"), _("Nothing paid"), reason, error=True)


def pin_refused(why: str, locked_for: int) -> Screen:
    """The banker's PIN refused by the write path: wrong, locked for ``locked_for`` s, or not given."""
    if why == "locked":
        return refused(_("PIN locked"), _("try in {seconds} s", seconds=locked_for))
    return refused(_("Wrong PIN") if why == "wrong" else _("Banker PIN needed"))


def volume(level: int) -> Screen:
    return screen(_("Volume"), _(VOLUME_NAMES[level]), big=1)


def language(code: str) -> Screen:
    """The language just chosen, by its own name (``FN 8``)."""
    from banker.text.i18n import LANGUAGE_NAMES

    return screen(_("Language"), LANGUAGE_NAMES[code], big=1)


def new_game(game_id: int, start_balance: int, players: int) -> Screen:
    return screen(_("New game"), _("{amount} each", amount=format_amount(start_balance)),
                  _n("Game {game}, {n} player", "Game {game}, {n} players", players, game=game_id))


def enrolled(card: Card, balance: int) -> Screen:
    return screen(_("Enrolled"), card.name, _("Balance {amount}", amount=format_amount(balance)))


def ledger_refused(old_release: bool) -> Screen:
    """The unit won't play on a ledger its writer refused (docs/security.md): what to run at a computer."""
    if old_release:
        return message(_("Old ledger"), _("First, at a computer:"), "banker ledger", "upgrade", error=True)
    return message(_("Ledger refused"), _("Not the journal kept"), _("here: see banker"), "ledger verify", error=True)


def message(*lines: str, error: bool = False) -> Screen:
    return screen(*lines, error=error)


def sign_of(reader: str) -> str:
    """The slot's sign as printed on the unit: ``+`` for the left reader, ``-`` for the right."""
    return "+" if reader == "left" else "-"


def reader_fault(reader: str, fault: str) -> Screen:
    """A reader that can't read: two cards in its field, or a chip that doesn't answer."""
    sign = sign_of(reader)
    if fault == "two-cards":
        return screen(_("Two cards on {sign}", sign=sign), _("Take one away"), _("Nothing is paid"), error=True)
    return screen(_("Reader {sign} not", sign=sign), _("answering"), _("Check its wiring"), error=True)


def reader_back(reader: str, restarted: bool) -> Screen:
    sign = sign_of(reader)
    if restarted:
        return screen(_("Reader {sign} restarted", sign=sign), _("Lay the card again"))
    return screen(_("Reader {sign} reads", sign=sign), _("again"))


def holding_c(progress: float) -> Screen:
    """``C`` held with no card down: the bar fills over the hold that starts a new game."""
    return replace(screen(_("New game?"), _("Keep holding C")), progress=max(0.0, min(1.0, progress)))


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
        return screen(_("No network yet"), _("The code shows once"), _("the unit is on Wi-Fi"), _("C: back"))
    return screen(_("Page: this computer"), _("only. For phones set"), "[web] host 0.0.0.0", _("C: back"))


def join_code(url: str, *lines: str) -> Screen:
    """The table page's address as a QR code, with up to four short lines beside it."""
    from banker.unit.screen import QR_LINE_WIDTH

    return Screen(lines=tuple(_fit(line, QR_LINE_WIDTH) for line in lines[:4]), qr=url)


ASLEEP = Screen(asleep=True)


def backup_stick(cause: str) -> tuple[str, ...]:
    """The lines said when the backup stick (the second backup folder) can't take a backup, by its cause (``full``,
    ``read-only``, ``failing``, ``missing``: :class:`store.backup_schedule.StickProblem`); play goes on."""
    titles = {"full": _("Backup stick full"), "read-only": _("Stick is read-only"),
              "failing": _("Backup stick failing"), "missing": _("Backup stick missing")}
    todo = {"full": _("Free space on it"), "read-only": _("Unlock its switch"),
            "failing": _("Use another stick"), "missing": _("Plug it in again")}
    return titles.get(cause, titles["failing"]), _("Play goes on: saved"), _("on the SD card"), todo.get(cause, todo["failing"])
