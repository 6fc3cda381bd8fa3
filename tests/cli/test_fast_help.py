"""``banker --help`` is printed without importing click, and is word for word what click prints."""

from __future__ import annotations

import os
import subprocess
import sys

from click.testing import CliRunner

from banker_cli.entry import rendered
from banker_cli.help_text import HELP
from banker_cli.main import cli

ENTRY = "import sys\nfrom banker_cli.entry import main\nsys.argv[0] = 'banker'\nmain()\n"


def banker(*args: str, columns: int | None = None, importtime: bool = False) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "BANKER_DB", "BANKER_CONFIG")}
    if columns is not None:
        env["COLUMNS"] = str(columns)
    flags = ["-X", "importtime"] if importtime else []
    return subprocess.run([sys.executable, *flags, "-c", ENTRY, *args], capture_output=True, text=True, env=env,
                          timeout=120)


def test_the_kept_help_is_what_click_prints_now():
    """A command added or its help changed: run 'python -m banker_cli.entry' to write banker_cli/help_text.py."""
    assert HELP == rendered()


def test_banker_help_prints_it_without_loading_click():
    for flag in ("--help", "-h"):
        run = banker(flag, importtime=True)
        assert run.returncode == 0 and run.stdout == HELP
        loaded = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines() if "|" in line}
        assert "click" not in loaded and "banker_cli.main" not in loaded


def test_a_narrow_terminal_gets_click_s_own_help_wrapped_to_it():
    run = banker("--help", columns=60)
    assert run.returncode == 0
    assert run.stdout == CliRunner().invoke(cli, ["--help"], prog_name="banker", env={"COLUMNS": "60"}).output
    assert run.stdout != HELP and max(len(line) for line in run.stdout.splitlines()) <= 58


def test_every_other_command_line_still_goes_to_click():
    assert banker("--version").stdout.startswith("banker, version")
    wrong = banker("--hepl")
    assert wrong.returncode == 2 and "no such option" in wrong.stderr
    assert banker("deeds", "--help").stdout.startswith("Usage: banker deeds")
