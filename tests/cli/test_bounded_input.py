"""Bounded input: a keypad script is read a line at a time within limits, a config within its size and depth.

The attack table (tests/cli/test_attacks_cli.py) holds the exit codes and
messages; here: memory stays flat for a 50 MB script, and the limits'
edges.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from banker.errors import ConfigError
from banker.script.syntax import MAX_STEPS, parse_lines
from runtime.config import parse_config
from runtime.config_file import MAX_CONFIG_BYTES, MAX_DEPTH, read_config_bytes

PEAK = """
import resource, sys
from banker_cli.main import cli
try:
    cli(["script", sys.argv[1]])
except SystemExit as exc:
    print(exc.code, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


@pytest.mark.parametrize("line", [b"press 1\n", b"# " + b"x" * 1000 + b"\n"])
def test_a_50_mb_script_is_refused_in_flat_memory(tmp_path, line):
    big = tmp_path / "big.kps"
    with big.open("wb") as out:
        out.write(line * (50 * 1024 * 1024 // len(line)))
    small = tmp_path / "small.kps"
    small.write_bytes(b"press 1\n")
    peaks = {}
    for path in (small, big):
        done = subprocess.run([sys.executable, "-c", PEAK, str(path)], capture_output=True, text=True, timeout=120)
        code, peak = done.stdout.split()[-2:]
        peaks[path.name] = int(peak)
    assert code == "2" and "the limit" in done.stderr
    assert peaks["big.kps"] - peaks["small.kps"] < 100 * 1024  # KiB: not the 951 MB it once took


def test_the_step_limit_is_exact():
    assert len(parse_lines(["press 1"] * MAX_STEPS)) == MAX_STEPS
    with pytest.raises(ValueError, match=f"line {MAX_STEPS + 2}: more than"):
        parse_lines(["# note"] + ["press 1"] * (MAX_STEPS + 1))


def test_a_config_within_the_limits_reads_and_one_past_them_is_refused(tmp_path):
    nested = "[web]\nenabled = true\n# " + "[" * 50 + "\nhost = \"[[[[[[[[[[[[[[[[[[[[\"\n"
    assert parse_config(nested).web.host.startswith("[")  # brackets in strings and comments don't count
    with pytest.raises(ConfigError, match="nested more than"):
        parse_config("a = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    with pytest.raises(ConfigError, match="larger than"):
        parse_config("# " + "x" * MAX_CONFIG_BYTES)
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * (MAX_CONFIG_BYTES + 1))
    with pytest.raises(ConfigError, match=f"{path}: larger than"):
        read_config_bytes(path)
