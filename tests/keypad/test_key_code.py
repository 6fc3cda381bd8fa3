"""``FN M``: the ledger's key as a QR code on the OLED, behind the banker's PIN, for ``banker key import``."""

from __future__ import annotations

from dataclasses import fields, is_dataclass

import segno

from banker.fold.authority import PIN_SETTING, hash_pin
from banker.journal.records import KeyShown
from render import render_image


def holds(value, text: str, depth: int = 0) -> bool:
    """Whether ``text`` lies anywhere in ``value`` (a panel and the modes and replies it holds), whatever their
    reprs hide."""
    if isinstance(value, str):
        return text in value
    if depth > 8 or value is None or isinstance(value, (int, float, bytes)):
        return False
    if isinstance(value, (tuple, list)):
        return any(holds(v, text, depth + 1) for v in value)
    if is_dataclass(value):
        return any(holds(getattr(value, f.name), text, depth + 1) for f in fields(value))
    return False


def shown_keys(ledger) -> int:
    return sum(isinstance(r, KeyShown) for r in ledger.store.records())


def test_fn_m_shows_the_key_as_banker_key_import_reads_it(table, ledger):
    from banker_cli.key_cli import parse_key_text

    table.keys("FN", "M")
    screen = table.shell.screen
    assert screen.qr == ledger.key_text() and shown_keys(ledger) == 1
    assert parse_key_text(screen.qr) == (ledger.store.ledger_id, ledger.store.key)
    assert "Ledger key" in screen.lines and all(len(line) <= 10 for line in screen.lines)
    table.keys("C")
    assert table.shell.screen.qr is None and "hidden" in table.shown
    assert not holds(table.shell.panel, ledger.store.key.hex())


def test_the_key_needs_the_pin_and_a_wrong_one_shows_nothing(table, ledger):
    ledger.set_setting(PIN_SETTING, hash_pin("2468", b"0123456789abcdef"))
    table.keys("FN", "M")
    assert "Banker PIN?" in table.shown and table.shell.screen.qr is None
    table.keys("1", "1", "1", "1", "M")
    assert "Wrong PIN" in table.shown and table.shell.screen.qr is None and shown_keys(ledger) == 0
    table.keys("FN", "M", "2", "4", "6", "8", "M")
    assert table.shell.screen.qr == ledger.key_text() and shown_keys(ledger) == 1


def test_another_key_or_a_card_hides_it(table, ledger):
    table.keys("FN", "M")
    table.keys("5")
    assert "C: hide the key" in table.shown               # refused: the flow goes on
    assert holds(table.shell.panel, ledger.store.key.hex())   # held by the key's screen while it shows
    table.keys("FN")
    assert table.shell.screen.qr is None                  # the FN menu: gone from the unit's state
    assert not holds(table.shell.panel, ledger.store.key.hex())


def test_the_code_fits_the_oled_with_its_quiet_zone(table, ledger):
    table.keys("FN", "M")
    matrix = segno.make(ledger.key_text(), error="l", micro=False, boost_error=True).matrix
    assert len(matrix) <= 58                               # at one pixel a module and more, in 64 px with the quiet zone
    image = render_image(table.shell.screen).convert("1")
    assert image.size == (128, 64)
    dark = sum(not image.getpixel((x, y)) for x in range(64) for y in range(64))
    assert dark > len(matrix) ** 2 // 4                    # the code is drawn, not a blank square
