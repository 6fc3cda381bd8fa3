"""The ``banker`` command's entry point: ``banker --help`` printed without importing click; all else is click's.

Importing click is half of what ``banker --help`` costs (21 ms of 47 here,
0.3 s of 0.7 s on a Pi Zero 2: benchmarks/bench_startup.py). The top-level
help is click's own text as it prints it at full width (a terminal of 80
columns or more, or no terminal), kept in :data:`banker_cli.help_text.HELP`:
tests/cli/test_fast_help.py holds it equal to what click prints now, so it
can't go stale, and ``python -m banker_cli.entry`` writes it anew after a
change to the commands. Any other command line, and a narrower terminal, go
to click (:data:`banker_cli.main.cli`).
"""

from __future__ import annotations

import os
import sys

#: The width click's help is made for, at most (80 columns, less 2), and at least (a narrow terminal).
FULL_WIDTH, NARROWEST = 78, 50


def terminal_width() -> int:
    """As click finds it: ``$COLUMNS`` or the terminal's width, at most 80, less 2; 80 off a terminal."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, OSError, ValueError):
            columns = 80
    return max(min(columns, 80) - 2, NARROWEST)


def main() -> None:
    """``banker``: the kept help for ``--help`` / ``-h`` at full width, else the click command."""
    if sys.argv[1:] in (["--help"], ["-h"]) and terminal_width() == FULL_WIDTH:
        from banker_cli.help_text import HELP

        try:
            sys.stdout.write(HELP)
            sys.stdout.flush()
        except BrokenPipeError:  # banker --help | head: done, as click's own help ends (docs/cli.md)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return
    from banker_cli.main import cli

    cli()


def rendered() -> str:
    """The top-level help as click prints it at full width (what :data:`banker_cli.help_text.HELP` keeps)."""
    from click.testing import CliRunner

    from banker_cli.main import cli

    result = CliRunner().invoke(cli, ["--help"], prog_name="banker", env={"COLUMNS": str(FULL_WIDTH + 2)})
    assert result.exit_code == 0, result.output
    return result.output


if __name__ == "__main__":
    from pathlib import Path

    target = Path(__file__).with_name("help_text.py")
    lines = "".join(f"    {line!r}\n" for line in rendered().splitlines(keepends=True))
    target.write_text('"""``banker --help`` as click prints it at full width (banker_cli/entry.py); written by\n'
                      '``python -m banker_cli.entry``, checked by tests/cli/test_fast_help.py."""\n\n'
                      f"HELP = (\n{lines})\n")
    print(f"wrote {target}")
