"""``FN K``: the table page's QR code on the OLED, and a new token behind the banker's PIN."""

from __future__ import annotations

import segno

from banker.fold.authority import PIN_SETTING, hash_pin
from banker.unit.events import RenewWebToken, WebAddress
from render import render_image

URL = "http://192.168.1.23:8080/?t=Ab3dEf6hIj9kLm0n"


def serve(table, url: str | None = URL) -> None:
    table.t += 0.01
    table._send(WebAddress(url, table.t))


def renewals(table) -> int:
    return sum(isinstance(e, RenewWebToken) for e in table.effects)


def test_fn_k_shows_the_page_as_a_qr_code(table):
    serve(table)
    table.keys("FN", "K")
    screen = table.shell.screen
    assert screen.qr == URL
    assert screen.lines[:2] == ("Scan for", "the table")
    assert all(len(line) <= 10 for line in screen.lines)
    table.keys("C")
    assert table.shell.screen.qr is None


def test_the_code_fills_the_left_of_the_oled_at_two_pixels_a_module(table):
    serve(table)
    table.keys("FN", "K")
    image = render_image(table.shell.screen).convert("1")
    matrix = segno.make(URL, error="l", micro=False, boost_error=True).matrix
    assert len(matrix) == 29  # version 3: 2 px a module is 58 px, within the 64 px height with its quiet zone
    quiet = (64 - 2 * 29) // 2
    assert all(image.getpixel((x, y)) for x in range(64) for y in range(64)
               if min(x, y) < quiet or max(x, y) >= 64 - quiet)  # a lit quiet zone all round
    drawn = [[not image.getpixel((quiet + 2 * x + dx, quiet + 2 * y + dy)) for x in range(29)]
             for y in range(29) for dx, dy in ((0, 0), (1, 1))]
    assert drawn[::2] == drawn[1::2] == [[bool(m) for m in row] for row in matrix]  # every module, 2 x 2 px


def test_with_no_page_it_says_how_to_turn_it_on(table):
    table.keys("FN", "K")
    assert "Table page is off" in table.shown and table.shell.screen.qr is None
    table.keys("M")
    assert renewals(table) == 0 and "Refused" in table.shown


def test_the_address_follows_the_runtime(table):
    serve(table)
    table.keys("FN", "K")
    serve(table, URL.replace("Ab3d", "ZZZZ"))
    assert table.shell.screen.qr.endswith("ZZZZEf6hIj9kLm0n")
    serve(table, None)
    assert "Table page is off" in table.shown


def test_m_renews_the_token_after_the_bankers_pin(table, ledger):
    ledger.set_setting(PIN_SETTING, hash_pin("2468", b"0123456789abcdef"))
    serve(table)
    table.keys("FN", "K", "M")
    assert "Banker PIN?" in table.shown and renewals(table) == 0
    table.keys("1", "1", "1", "1", "M")
    assert "Wrong PIN" in table.shown and renewals(table) == 0
    table.keys("FN", "K", "M", "2", "4", "6", "8", "M")
    assert renewals(table) == 1
    assert "New code" in table.shown and table.shell.screen.qr == URL  # until the runtime brings the new one


def test_without_a_pin_m_renews_at_once(table):
    serve(table)
    table.keys("FN", "K", "M")
    assert renewals(table) == 1 and "old pages" in table.shown


def test_the_shell_hands_the_renewal_to_the_page_server(table):
    seen = []
    table.shell.on_effect = seen.append
    serve(table)
    table.keys("FN", "K", "M")
    assert seen == [RenewWebToken()]


def test_other_keys_keep_the_code(table):
    serve(table)
    table.keys("FN", "K", "5")
    assert "M: new code" in table.shown
    table.keys("FN")
    assert "FN: 01-39 deed" in table.shown and "K page  M key" in table.shown


def test_the_unit_and_its_page_server_together(tmp_path):
    """The runtime's wiring: the server tells the shell its address; FN K M renews it through on_effect."""
    from runtime.ledger import SqliteLedger
    from tests.conftest import Table
    from web import serve_in_background

    with SqliteLedger(tmp_path / "ledger.db") as ledger:
        table = Table(ledger)
        with serve_in_background(ledger, host="0.0.0.0", port=0, post=table.shell.post,
                                 lan=lambda: "192.168.1.23") as page:
            table.shell.on_effect = page.on_effect
            table.shell.pump()
            first = page.url
            assert first.startswith("http://192.168.1.23:")
            table.keys("FN", "K")
            assert table.shell.screen.qr == first
            table.keys("M")
            table.shell.pump()  # the new address, posted by the server
            assert table.shell.screen.qr == page.url != first
        table.shell.pump()
        assert "Table page is off" in table.shown


# -- no network yet ---------------------------------------------------------------------------


def test_with_no_network_address_fn_k_says_so_instead_of_a_useless_code(table):
    serve(table, "http://0.0.0.0:8080/?t=Ab3dEf6hIj9kLm0n")
    table.keys("FN", "K")
    assert "No network yet" in table.shown and table.shell.screen.qr is None
    serve(table)  # the Wi-Fi came up: the runtime brings the LAN address, shown at once
    assert table.shell.screen.qr == URL


def test_a_loopback_address_is_never_shown_as_a_code(table):
    serve(table, "http://127.0.0.1:8080/?t=Ab3dEf6hIj9kLm0n")
    table.keys("FN", "K")
    assert "Page: this computer" in table.shown and "[web] host 0.0.0.0" in table.shown
    assert table.shell.screen.qr is None
    assert all(len(line) <= 21 for line in table.shell.screen.lines)


def test_a_unit_that_boots_before_its_wifi_shows_the_code_once_it_has_an_address(tmp_path, monkeypatch):
    """The address is worked out again and again: loopback first (no Wi-Fi yet), then the LAN's."""
    import time

    import web.background
    from runtime.ledger import SqliteLedger
    from tests.conftest import Table
    from web import serve_in_background

    monkeypatch.setattr(web.background, "ADDRESS_SECONDS", 0.05)
    route = ["127.0.0.1"]
    with SqliteLedger(tmp_path / "ledger.db") as ledger:
        table = Table(ledger)
        with serve_in_background(ledger, host="0.0.0.0", port=0, post=table.shell.post, lan=lambda: route[-1]) as page:
            assert page.waiting_for_network and page.url.startswith("http://127.0.0.1:")  # opens here, at least
            table.shell.pump()
            table.keys("FN", "K")
            assert "No network yet" in table.shown and table.shell.screen.qr is None
            route.append("192.168.1.23")
            end = time.monotonic() + 5
            while table.shell.screen.qr is None and time.monotonic() < end:
                time.sleep(0.02)
                table.shell.pump()
            assert table.shell.screen.qr == page.url == f"http://192.168.1.23:{page.port}/?t={page.tokens.current()}"
            assert not page.waiting_for_network


def test_a_malformed_page_address_is_a_host_name_not_a_crash():
    from banker.unit import views

    assert views.page_reach("http://[::1") == "lan"
