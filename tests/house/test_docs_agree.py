"""The docs agree with the program: every command and option `--help` shows is in docs/cli.md, and every
setting the config's readers take is in docs/config.md and in the example config, in its own section."""

import re
from pathlib import Path

import click
import pytest

from banker_cli.backends import RUN_BACKENDS, SCRIPT_BACKENDS
from banker_cli.main import cli
from runtime.config import known_settings, parse_config

ROOT = Path(__file__).resolve().parents[2]
CLI_DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
EXAMPLE = (ROOT / "docs" / "banker.example.toml").read_text(encoding="utf-8")


def _commands(command: click.Command, path: list[str]):
    ctx = click.Context(cli)
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            yield from _commands(command.get_command(ctx, name), path + [name])
    else:
        yield "banker " + " ".join(path), command


COMMANDS = list(_commands(cli, []))


@pytest.mark.parametrize("name, command", COMMANDS, ids=[name for name, _ in COMMANDS])
def test_every_command_and_option_in_help_is_in_cli_md(name, command):
    assert f"`{name}" in CLI_DOC, f"docs/cli.md has no row for {name}"
    for param in command.params:
        for option in param.opts + param.secondary_opts:
            if option.startswith("--") and option != "--help":
                assert option in CLI_DOC, f"{name} {option} is in --help but not in docs/cli.md"


def test_every_script_backend_is_in_cli_md():
    for name in SCRIPT_BACKENDS + ("spy",):
        shown = {"serial": "serial:URL", "spy": "spy:NAME"}.get(name, name)
        assert f"`{shown}`" in CLI_DOC, f"banker script --backend {name} is not in docs/cli.md"
    run_choices = "\\|".join(RUN_BACKENDS)  # as a Markdown table writes pi|hw-sim
    assert f"[--backend {run_choices}]" in CLI_DOC


def _sections(text: str) -> dict[str, str]:
    """The example's text under each [section] header (up to the next header)."""
    parts = re.split(r"^\[([\w.]+)\][^\n]*$", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def test_the_example_config_names_every_setting_in_its_section():
    sections = _sections(EXAMPLE)
    for name in known_settings():
        section, key = name.rsplit(".", 1)
        assert section in sections, f"docs/banker.example.toml has no [{section}] (for {name})"
        assert re.search(rf"^#?\s*{re.escape(key)}\s*=", sections[section], re.M), \
            f"docs/banker.example.toml doesn't show {name}"


def test_the_example_config_is_a_valid_config():
    config = parse_config(EXAMPLE, "docs/banker.example.toml")
    assert config.web.host == "0.0.0.0"
