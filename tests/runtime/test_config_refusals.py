"""A config value the unit can't use is refused when the file is read, with a message naming its key: never a crash
of `banker run` later (docs/config.md)."""

from __future__ import annotations

import pytest

from banker.errors import ConfigError
from runtime.config import parse_config
from runtime.pins import gpio_of, wires_of


@pytest.mark.parametrize("text, message", [
    ("web = 3", "[web] must be a table"),
    ('[keypad]\nkeys = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"], ["*", "0", "#"]]',
     "keypad.keys must be 4 rows of 4 key names"),
    ('[keypad]\nkeys = [["1", "2", "3", "A"]]', "keypad.keys must be 4 rows of 4 key names"),
    ('[web]\nhost = "  "', 'web.host must name an address, e.g. "0.0.0.0" for every network'),
    ("[web]\nport = 0", "web.port must be a TCP port 1-65535, not 0"),
    ('[backups]\nsecond_folder = "stick/banker"', "backups.second_folder"),
])
def test_a_value_the_unit_cannot_use_is_refused_naming_its_key(text, message):
    with pytest.raises(ConfigError) as refused:
        parse_config(text, "banker.toml")
    assert message in str(refused.value)


@pytest.mark.parametrize("text, message", [
    ('[unit]\nname = "a \\" quote', "banker.toml: not valid TOML"),
    ("[unit]\nname = 'left open\nsleep_after = 5", "banker.toml: not valid TOML"),
    ("x = " + "[" * 40 + "]" * 40, "banker.toml: arrays or tables nested more than"),
])
def test_a_file_that_is_not_toml_is_named(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(text, "banker.toml")


def test_a_second_folder_given_absolute_is_taken():
    assert parse_config('[backups]\nsecond_folder = "/media/banker-stick/banker"').backups_second_folder == \
        "/media/banker-stick/banker"


def test_the_wiring_table_names_what_it_does_not_hold():
    with pytest.raises(KeyError, match="no device 'lamp' in the wiring table"):
        wires_of("lamp")
    with pytest.raises(KeyError, match="keypad has no terminal 'Z9'"):
        gpio_of("keypad", "Z9")
    ground = next(w for w in wires_of("display") if w.gpio is None)
    with pytest.raises(ValueError, match=f"display {ground.terminal} goes to .*, not a GPIO"):
        gpio_of("display", ground.terminal)
