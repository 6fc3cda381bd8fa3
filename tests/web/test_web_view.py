"""What the table page shows, as data: balances, deeds by colour, the bank, the journal, worth over time, standings."""

from __future__ import annotations

import json
import os
import stat

import segno

from banker.journal.records import Posting, Transaction
from runtime.ledger import SqliteLedger
from web.background import page_url, phone_url
from web.demo import play_demo
from web.source import FileSource, SnapshotSource
from web.tokens import TokenStore, token_path
from web.view import WorthHistory, _nice_ticks, state


def pay(ledger, payer: str, payee: str, amount: int) -> Transaction:
    a, b = ledger.game().card_by_name(payer), ledger.game().card_by_name(payee)
    return ledger.post(Transaction("transfer", (Posting(a.id, b.id, amount, "transfer"),), f"{payer} paid {payee}"))


def demo_state(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteLedger(path) as ledger:
        play_demo(ledger)
        game = ledger.game()
    source = FileSource(path)
    try:
        return source.open(), game
    finally:
        source.close()


def test_balances_in_dollars_by_name_with_the_units_writing(tmp_path):
    s, game = demo_state(tmp_path)
    assert s["balances"] == {c.name: game.balance(c.id) for c in game.cards}
    alice = next(p for p in s["players"] if p["name"] == "Alice")
    assert alice["balance_text"] == "7.5M" and alice["balance"] == 7_500_000
    assert json.loads(json.dumps(s)) == s  # plain JSON all the way down


def test_deeds_carry_owner_group_buildings_and_mortgage(tmp_path):
    s, _ = demo_state(tmp_path)
    deeds = {d["slug"]: d for d in s["deeds"]}
    assert len(deeds) == 28
    assert deeds["boardwalk"]["owner"] == "Alice" and deeds["boardwalk"]["group"] == "dark-blue"
    assert deeds["boardwalk"]["houses"] == 1 and not deeds["boardwalk"]["hotel"]
    assert deeds["electric-company"]["owner"] == "Cleo" and deeds["electric-company"]["mortgaged"]
    assert deeds["mediterranean-avenue"]["owner"] is None


def test_the_bank_counts_its_buildings_and_unsold_deeds(tmp_path):
    s, game = demo_state(tmp_path)
    assert s["bank"]["houses"] == game.estate.houses_in_bank == 32 - 2
    assert s["bank"]["hotels"] == 12
    assert s["bank"]["unsold"] == 28 - 8


def test_the_journal_marks_undone_entries_and_their_reversal(tmp_path):
    s, _ = demo_state(tmp_path)
    undone = [e for e in s["journal"] if e["undone"]]
    assert [e["memo"] for e in undone] == ["Dan paid bank"]
    reversal = next(e for e in s["journal"] if e["reverses"] == undone[0]["id"])
    assert not reversal["undone"]
    ids = [e["id"] for e in s["journal"]]
    assert ids == sorted(ids)


def test_worth_over_time_has_a_point_per_transaction_and_starts_with_each_player(tmp_path):
    s, game = demo_state(tmp_path)
    chart = s["worth"]
    assert chart["players"] == ["Alice", "Bob", "Cleo", "Dan"]
    assert len(chart["points"]) == game.transactions
    first = chart["points"][0][1]
    assert first[0] == 15_000_000 and first[1:] == [None, None, None]  # Bob, Cleo, Dan not enrolled yet
    last = chart["points"][-1][1]
    assert last == [p["worth"] for p in s["players"]]  # the fold agrees with the rules' total worth now
    low, high = chart["ticks"][0][0], chart["ticks"][-1][0]
    assert low <= min(last) and high >= max(last)


def test_standings_in_the_state(tmp_path):
    s, _ = demo_state(tmp_path)
    places = [(r["place"], r["name"]) for r in s["standings"]]
    assert places[0] == (1, "Alice")
    values = [r["value"] for r in s["standings"]]
    assert values == sorted(values, reverse=True)
    cleo = next(r for r in s["standings"] if r["name"] == "Cleo")
    cleo_worth = next(p["worth"] for p in s["players"] if p["name"] == "Cleo")
    assert cleo["value"] < cleo_worth  # the mortgaged Electric Company counts half


def test_a_ledger_with_no_game_yet(tmp_path):
    from banker.fold.game import Game

    s = state(Game(), [], WorthHistory(), seq=0)
    assert s["game"] is None and s["players"] == []


def test_ticks_are_round_and_cover_the_range():
    assert _nice_ticks(0, 15_000_000)[-1][0] >= 15_000_000
    ticks = _nice_ticks(13_000_000, 17_000_000)
    assert 0 < ticks[0][0] <= 13_000_000 and ticks[-1][0] >= 17_000_000  # close to the lines, not from 0
    assert [t for _, t in _nice_ticks(0, 4_000_000)] == ["0", "1M", "2M", "3M", "4M"]
    assert _nice_ticks(0, 0) == [[0, "0"], [1, "1"]]
    assert _nice_ticks(-2_000_000, 3_000_000)[0][1] == "-2M"  # negative balances (a house rule)


def test_the_file_source_follows_commits_one_state_each(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteLedger(path) as ledger:
        ledger.enrol("Alice", "A1")
        ledger.enrol("Bob", "B2")
        source = FileSource(path)
        try:
            first = source.open()
            assert source.poll() == []
            pay(ledger, "Bob", "Alice", 2_500_000)
            pay(ledger, "Alice", "Bob", 500_000)
            states = source.poll()
            assert [s["balances"]["Alice"] for s in states] == [17_500_000, 17_000_000]
            assert states[-1]["seq"] == first["seq"] + 2
            ledger.undo()
            (after,) = source.poll()
            assert after["journal"][-2]["undone"] and after["balances"]["Alice"] == 17_500_000
            ledger.new_game()
            (fresh,) = source.poll()
            assert fresh["game"]["id"] == first["game"]["id"] + 1 and fresh["balances"] == {"Alice": 15_000_000,
                                                                                           "Bob": 15_000_000}
            assert len(fresh["worth"]["points"]) == 2
        finally:
            source.close()


def test_the_snapshot_source_reads_a_ledger_in_memory():
    with SqliteLedger(":memory:") as ledger:
        ledger.enrol("Alice", "A1")
        ledger.enrol("Bob", "B2")
        source = SnapshotSource(ledger)
        assert source.open()["balances"] == {"Alice": 15_000_000, "Bob": 15_000_000}
        assert source.poll() == []
        pay(ledger, "Bob", "Alice", 1_000_000)
        (s,) = source.poll()
        assert s["balances"]["Bob"] == 14_000_000 and s["journal"][-1]["memo"] == "Bob paid Alice"


# -- the token -----------------------------------------------------------------------------


def test_the_token_is_private_beside_the_ledger_and_kept_across_restarts(tmp_path):
    path = token_path(tmp_path / "ledger.db")
    assert path == tmp_path / "ledger.db.web-token"
    token = TokenStore(path).current()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert len(token) == 16 and TokenStore(path).current() == token


def test_renewing_the_token_refuses_the_old_one_and_another_process_sees_it(tmp_path):
    path = tmp_path / "ledger.db.web-token"
    here, there = TokenStore(path), TokenStore(path)
    old = here.current()
    assert there.matches(old)
    new = here.renew()
    assert new != old and not here.matches(old) and here.matches(new)
    before = there.generation
    assert there.matches(new) and not there.matches(old)
    assert there.generation == before + 1
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_no_token_matches_nothing():
    tokens = TokenStore(None)
    assert not tokens.matches("") and not tokens.matches(None) and not tokens.matches("x" * 16)
    assert tokens.matches(tokens.current())


def test_the_url_fits_a_qr_code_the_oled_draws_at_two_pixels_a_module():
    longest = page_url("255.255.255.255", 65535, "A" * 16)
    assert longest == "http://255.255.255.255:65535/?t=" + "A" * 16
    code = segno.make(longest, error="l", micro=False, boost_error=True)
    assert code.version <= 3  # 29 modules: 58 px + the quiet zone within the OLED's 64


def test_a_wildcard_host_gives_the_lan_address():
    url = page_url("0.0.0.0", 8080, "T" * 16)
    assert url.startswith("http://") and "0.0.0.0" not in url
    assert page_url("::1", 8080, "T" * 16) == "http://[::1]:8080/?t=" + "T" * 16


def test_the_address_is_worked_out_when_asked_and_never_loopback_for_a_phone():
    assert phone_url("0.0.0.0", 8080, "T" * 16, lan=lambda: "192.168.1.23") == "http://192.168.1.23:8080/?t=" + "T" * 16
    for nothing in (None, "127.0.0.1", "0.0.0.0"):  # no route yet, or only the loopback
        assert phone_url("0.0.0.0", 8080, "T" * 16, lan=lambda nothing=nothing: nothing) == "http://0.0.0.0:8080/?t=" + "T" * 16
        assert page_url("0.0.0.0", 8080, "T" * 16, lan=lambda nothing=nothing: nothing) == "http://127.0.0.1:8080/?t=" + "T" * 16
    assert phone_url("::", 8080, "T" * 16, lan=lambda: None) == "http://[::]:8080/?t=" + "T" * 16
    assert phone_url("192.168.1.5", 8080, "T" * 16, lan=lambda: None) == "http://192.168.1.5:8080/?t=" + "T" * 16


def test_the_core_tells_a_phones_address_from_one_no_phone_can_open():
    from banker.unit.views import page_reach

    assert page_reach("http://192.168.1.23:8080/?t=x") == page_reach("http://banker.local:8080/?t=x") == "lan"
    assert page_reach("http://0.0.0.0:8080/?t=x") == page_reach("http://[::]:8080/?t=x") == "no-network"
    assert page_reach("http://127.0.0.1:8080/?t=x") == page_reach("http://[::1]:8080/?t=x") == "this-computer"
    assert page_reach("http://localhost:8080/?t=x") == "this-computer"
