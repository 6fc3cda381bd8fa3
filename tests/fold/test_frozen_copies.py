"""banker.frozen.replace: a record copied with some fields changed is what dataclasses.replace gives, checks included."""

import dataclasses
import doctest

import pytest

import banker.frozen
from banker.frozen import replace
from banker.errors import ConfigError
from banker.rules.settings import RuleSettings
from banker.unit.panel import Panel


def test_a_copy_is_equal_to_the_one_dataclasses_makes_and_the_original_is_untouched():
    panel = Panel()
    changed = replace(panel, message=None, web_url="http://banker.local")
    assert changed == dataclasses.replace(panel, message=None, web_url="http://banker.local")
    assert hash(changed) == hash(dataclasses.replace(panel, message=None, web_url="http://banker.local"))
    assert panel.web_url != "http://banker.local" and type(changed) is Panel
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.web_url = "x"


def test_a_field_the_record_lacks_is_refused_as_dataclasses_refuses_it():
    with pytest.raises(TypeError):
        replace(Panel(), no_such_field=1)


def test_a_record_with_a_post_init_is_still_checked_by_it():
    """RuleSettings checks its values in __post_init__: a copy goes through it, as dataclasses.replace's does."""
    with pytest.raises(ConfigError, match="houses_for_hotel"):
        replace(RuleSettings(), houses_for_hotel=7)
    assert replace(RuleSettings(), houses_for_hotel=3) == RuleSettings(houses_for_hotel=3)


def test_the_module_s_examples_hold():
    assert doctest.testmod(banker.frozen).failed == 0
