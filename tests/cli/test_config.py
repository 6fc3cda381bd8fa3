"""The device config: every value range-checked when the file is read, and the config's ledger on every command."""

import pytest

from banker.errors import ConfigError
from runtime.config import Config, parse_config
from tests.cli.support import banker

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]



# -- every value in range ---------------------------------------------------------------------

BAD = [
    # (TOML, the key the message names)
    ("[buzzer]\npin = 99\n", "buzzer.pin must be a GPIO number 0-27"),
    ("[buzzer]\npin = -1\n", "buzzer.pin"),
    ("[buzzer]\npin = 99999999999999999999999\n", "buzzer.pin"),
    ("[readers.left]\nreset_pin = 28\n", "readers.left.reset_pin"),
    ("[readers.left]\nspi_hz = 0\n", "readers.left.spi_hz"),
    ("[readers.right]\nspi_hz = 20000000\n", "readers.right.spi_hz"),
    ("[readers.left]\nbus = 9\n", "readers.left.bus"),
    ("[readers.left]\ndevice = 5\n", "readers.left.device"),
    ("[readers.left]\nbaudrate = 0\n", "readers.left.baudrate must be a standard baud rate"),
    ("[readers.left]\nbaudrate = 9601\n", "readers.left.baudrate"),
    ("[readers]\nkind = 'rdm6300'\n[readers.left]\nurl = ''\n", "readers.left.url"),
    ("[readers]\npoll_interval = 0\n", "readers.poll_interval"),
    ("[readers]\npoll_interval = nan\n", "readers.poll_interval"),
    ("[readers]\npoll_interval = -0.1\n", "readers.poll_interval"),
    ("[readers]\nremoval_after = inf\n", "readers.removal_after"),
    ("[readers]\npoll_interval = 0.5\nremoval_after = 0.1\n", "readers.removal_after"),
    ("[display]\naddress = 0x78\n", "display.address must be an I2C address 0x03-0x77"),
    ("[display]\naddress = 2\n", "display.address"),
    ("[display]\nport = -1\n", "display.port"),
    ("[display]\ncontrast = 256\n", "display.contrast"),
    ("[display]\nrotate = 4\n", "display.rotate"),
    ("[display]\nbus = 'spi'\ndc_pin = 40\n", "display.dc_pin"),
    ("[display]\nbus = 'spi'\ndc_pin = 5\n", "GPIO5 is given to two devices"),
    ("[keypad]\ndebounce = 0\n", "keypad.debounce"),
    ("[keypad]\ndebounce = 1e400\n", "keypad.debounce"),
    ("[keypad]\npress_confirm = 0\n", "keypad.press_confirm"),
    ("[keypad]\npress_confirm = 2\n", "keypad.press_confirm"),
    ("[keypad]\nrows = [5, 6, 13, 99]\n", "keypad.rows"),
    ("[keypad]\ncolumns = [5, 16, 20, 21]\n", "GPIO5 is given to two devices"),
    ("[keypad]\nkeys = [['1','2','3','X'],['4','5','6','K'],['7','8','9','C'],['.','0','GO','FN']]\n", "keypad.keys"),
    ("[keypad]\nkeys = [['1','1','3','M'],['4','5','6','K'],['7','8','9','C'],['.','0','GO','FN']]\n",
     "the key 1 is given twice"),
    ("[unit]\nsleep_after = 0\n", "unit.sleep_after"),
    ("[unit]\nsleep_after = -5\n", "unit.sleep_after"),
    ("[unit]\nsleep_after = inf\n", "unit.sleep_after"),
    ("[unit]\nsleep_after = nan\n", "unit.sleep_after"),
    ("[unit]\nsleep_after = 10000000000000000000000\n", "unit.sleep_after"),
    ("[unit]\ndb = ''\n", "unit.db"),
    ("[unit]\ndb = \"a\\u0000b\"\n", "unit.db"),
    ("[serial_test_port]\nbaudrate = 0\n", "serial_test_port.baudrate"),
    ("[serial_test_port]\nurl = ''\n", "serial_test_port.url"),
    ("[house_rules]\nstart_balance = 0\n", "house_rules.start_balance"),
    ("[house_rules]\nstart_balance = -15000000\n", "house_rules.start_balance"),
    ("[house_rules]\nstart_balance = '-15M'\n", "house_rules.start_balance"),
    ("[house_rules]\nstart_balance = 9223372036854775808\n", "house_rules.start_balance"),
    ("[house_rules]\nstart_balance = '1,5M'\n", "house_rules.start_balance"),
    ("[house_rules]\nstart_balance = '١٥M'\n", "house_rules.start_balance"),
    ("[house_rules]\ngo_salary = 0\n", "house_rules.go_salary"),
    ("[house_rules]\ngo_salary = 1.5\n", "house_rules.go_salary"),
]


@pytest.mark.parametrize("text, named", BAD, ids=[named for _, named in BAD])
def test_a_value_out_of_range_is_refused_naming_its_key(text, named):
    with pytest.raises(ConfigError, match=named.replace("[", r"\[").replace(".", r"\.")):
        parse_config(text, "banker.toml")


@pytest.mark.parametrize("text, named", BAD[:6] + BAD[16:18] + BAD[29:31], ids=lambda v: str(v)[:20])
def test_doctor_and_run_exit_2_naming_the_key_never_a_traceback(tmp_path, text, named):
    config = tmp_path / "banker.toml"
    config.write_text(text)
    for command in (["doctor", "--backend", "hw-sim"], ["run", "--backend", "hw-sim", "--seconds", "0.01",
                                                        "--db", tmp_path / "l.db"]):
        result = banker(*command, "--config", config)
        assert result.exit_code == 2, result.output
        assert named.split(" ")[0] in result.output and str(config) in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "l.db").exists()


@pytest.mark.parametrize("text", [
    "[readers.left]\nspi_hz = 10000000\n", "[display]\naddress = 0x03\n", "[display]\naddress = 0x77\n",
    "[buzzer]\npin = 0\n", "[buzzer]\nenabled = false\npin = 27\n", "[readers.left]\nbaudrate = 115200\n",
    "[unit]\nsleep_after = 0.5\n", "[house_rules]\nstart_balance = '1,500,000'\n",
])
def test_values_at_the_edges_of_their_range_are_taken(text):
    parse_config(text)


def test_the_example_config_and_the_defaults_agree_with_the_docs():
    example = parse_config((ROOT / "docs" / "banker.example.toml").read_text(encoding="utf-8"))
    assert example.db == "/var/lib/monopoly-banker/ledger.db"
    assert parse_config("") == Config()


# -- the file itself --------------------------------------------------------------------------


def test_a_config_that_is_not_utf8_exits_2_naming_the_file_and_line(tmp_path):
    config = tmp_path / "banker.toml"
    config.write_bytes(b"[unit]\nsleep_after = 60\n# caf\xe9\n")
    result = banker("doctor", "--backend", "hw-sim", "--config", config)
    assert result.exit_code == 2
    assert f"{config}: line 3: not UTF-8" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_utf8_byte_order_mark_is_fine(tmp_path):
    config = tmp_path / "banker.toml"
    config.write_bytes(b"\xef\xbb\xbf[buzzer]\nenabled = false\n")
    result = banker("doctor", "--backend", "hw-sim", "--config", config)
    assert result.exit_code == 0, result.output
    assert "buzzer" not in result.output.split("All")[0].lower().replace("no buzzer", "")


def test_a_missing_config_exits_2(tmp_path):
    result = banker("cards", "list", "--config", tmp_path / "missing.toml")
    assert result.exit_code == 2 and "missing.toml" in result.output


# -- which ledger: --db, $BANKER_DB, the config's [unit] db, the user data folder ------------


@pytest.fixture
def places(tmp_path, monkeypatch):
    """Four ledgers, one per rung of the order, each with a player named after it."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("BANKER_DB", raising=False)
    monkeypatch.delenv("BANKER_CONFIG", raising=False)
    paths = {"flag": tmp_path / "flag.db", "env": tmp_path / "env.db", "config": tmp_path / "config.db",
             "home": tmp_path / "data" / "monopoly-banker" / "ledger.db"}
    for who, path in paths.items():
        result = banker("cards", "enrol", who.capitalize(), "--db", path)
        assert result.exit_code == 0, result.output
    config = tmp_path / "banker.toml"
    config.write_text(f'[unit]\ndb = "{paths["config"]}"\n')
    return paths, config


def who(result) -> str:
    assert result.exit_code == 0, result.output
    return result.output.split()[0]


def test_the_ledger_is_found_in_the_documented_order(places, monkeypatch):
    paths, config = places
    assert who(banker("cards", "list")) == "Home"
    assert who(banker("cards", "list", "--config", config)) == "Config"
    monkeypatch.setenv("BANKER_CONFIG", str(config))
    assert who(banker("cards", "list")) == "Config"
    monkeypatch.setenv("BANKER_DB", str(paths["env"]))
    assert who(banker("cards", "list")) == "Env"
    assert who(banker("cards", "list", "--db", paths["flag"])) == "Flag"


@pytest.mark.parametrize("command", [["cards", "list"], ["game", "list"], ["game", "show"], ["ledger", "show"],
                                     ["ledger", "export"], ["ledger", "verify"], ["deeds", "list"],
                                     ["game", "backups"]])
def test_every_reading_command_honours_the_config(places, command):
    paths, config = places
    result = banker(*command, "--config", config)
    assert result.exit_code == 0, result.output
    if command[0] in ("cards", "ledger") and command[1] != "verify":
        assert "Config" in result.output and "Home" not in result.output


def test_a_change_goes_to_the_configured_ledger(places):
    paths, config = places
    assert banker("cards", "enrol", "Zoe", "--config", config).exit_code == 0
    assert "Zoe" in banker("cards", "list", "--db", paths["config"]).output
    assert "Zoe" not in banker("cards", "list").output


def test_a_script_plays_on_the_configured_ledger_else_in_memory(places, tmp_path, monkeypatch):
    paths, config = places
    script = tmp_path / "s.kps"
    script.write_text("expect balance Config 15M\n")
    assert banker("script", script, "--config", config).exit_code == 0  # the config's [unit] db, as every command
    assert banker("script", script).exit_code == 1  # no ledger named: a fresh game, no Config there
    monkeypatch.setenv("BANKER_CONFIG", str(config))  # as the Pi's banker on the PATH sets it
    assert banker("script", script).exit_code == 1  # never the unit's game: a fresh one
    monkeypatch.delenv("BANKER_CONFIG")
    monkeypatch.setenv("BANKER_DB", str(paths["config"]))
    assert banker("script", script).exit_code == 0


def test_a_bad_config_stops_a_ledger_command_naming_its_key(places, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[buzzer]\npin = 99\n")
    result = banker("cards", "list", "--config", bad)
    assert result.exit_code == 2 and "buzzer.pin" in result.output
