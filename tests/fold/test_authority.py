"""The banker's authority on every path: wrong PINs are journalled, and the lockout holds across paths and processes."""

import pytest

from banker.fold.authority import Grant, NotAuthorised, hash_pin
from banker.fold.lockout import LOCKOUT_SECONDS, seconds_locked
from banker.journal.records import PinChange, PinFailure
from runtime.ledger import SqliteLedger


def with_pin(ledger, pin="2468"):
    ledger.commit(PinChange(hash_pin(pin, b"0123456789abcdef")))


def test_three_wrong_pins_lock_and_the_lock_grows_on_repeats():
    assert seconds_locked((10.0, 20.0), now=21.0) == 0
    assert seconds_locked((10.0, 20.0, 30.0), now=30.0) == LOCKOUT_SECONDS + 1             # rounded up
    assert seconds_locked((10.0, 20.0, 30.0, 100.0), now=100.0) == 2 * LOCKOUT_SECONDS + 1
    assert seconds_locked((10.0, 20.0, 30.0), now=45.0) == 16 and seconds_locked((10.0, 20.0, 30.0), now=61.0) == 0


def test_wrong_pins_from_the_cli_lock_the_keypad_too(table):
    with_pin(table.ledger)
    now = table.ledger.game().pin_failures  # none yet
    assert now == ()
    for _ in range(3):
        with pytest.raises(NotAuthorised, match="wrong banker PIN"):
            table.ledger.authorise(Grant("0000", "cli"))
    with pytest.raises(NotAuthorised, match="locked for"):
        table.ledger.authorise(Grant("2468", "cli"))  # even the right PIN, while locked
    table.keys("FN", ".")
    table.type("2468M")
    assert "PIN locked" in table.shown


def test_the_lockout_survives_a_new_process(tmp_path):
    path = tmp_path / "ledger.db"
    with SqliteLedger(path) as ledger:
        with_pin(ledger)
        for _ in range(3):
            with pytest.raises(NotAuthorised):
                ledger.authorise(Grant("1111", "script"))
    with SqliteLedger(path) as again:  # the next program, moments later
        with pytest.raises(NotAuthorised, match="locked"):
            again.authorise(Grant("2468", "cli"))
        assert [type(r) for r in again.store.records()].count(PinFailure) == 3
        assert again.verify().ok


def test_the_right_pin_passes_and_no_pin_is_refused(ledger):
    with_pin(ledger)
    ledger.authorise(Grant("2468", "cli"))
    with pytest.raises(NotAuthorised, match="needs the banker's PIN"):
        ledger.authorise(Grant(None, "cli"))


def test_only_ascii_digits_make_a_pin():
    from banker.errors import AmountError

    for pin in ("١٢٣٤", "12 34", "²²²²", "abcd"):
        with pytest.raises(AmountError):
            hash_pin(pin, b"salt")


def test_undoing_an_older_payment_needs_the_pin_on_the_cli(tmp_path):
    from click.testing import CliRunner

    from banker_cli.main import cli

    db = tmp_path / "ledger.db"
    script = tmp_path / "game.kps"
    script.write_text("enrol Alice A1\nenrol Bob B2\ninsert left Alice\ninsert right Bob\npress 2 M\npress 1 M\n")

    def banker(*args):
        return CliRunner().invoke(cli, [*map(str, args), "--db", str(db)])

    assert banker("script", script).exit_code == 0
    assert banker("pin", "set", "--new", "2468").exit_code == 0
    assert banker("ledger", "undo").exit_code == 0       # the last one (#4): no PIN, as FN C on the unit
    refused = banker("ledger", "undo", "3")            # 2M, no longer the last
    assert refused.exit_code == 4 and "banker's PIN" in refused.output
    assert banker("ledger", "undo", "3", "--pin", "2468").exit_code == 0
