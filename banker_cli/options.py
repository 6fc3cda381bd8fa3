"""The rules of a command line's words, each in one place: numbers in ASCII digits, no contradicting options, editions.

- Every number an option or argument takes (click's ``int``, ``IntRange``,
  ``float``, ``FloatRange``) is read from the ASCII digits ``0``-``9`` only:
  Python's ``int()`` and ``float()`` read ``９０`` or ``١٢`` as numbers, and
  docs/cli.md says they are refused. :func:`ascii_numbers` applies it to a
  command and its subcommands as :class:`banker_cli.main.LazyGroup` loads
  them, so no command can miss it.
- A ``--x/--no-x`` pair given both ways, or two options that say opposite
  things (``--free-parking 500K --no-free-parking``), is bad usage (exit 2),
  never "the last one wins": :class:`Pair` and :func:`one_of`.
- An edition is named by its name among those packaged (``cards``), never
  by a path: :func:`edition_type`.
"""

from __future__ import annotations

import copy
import re

import click

#: What a number on the command line may be: an optional sign, ASCII digits (a point and an exponent for a float).
_INTEGER = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")


def _ascii_type(param_type: click.ParamType) -> click.ParamType | None:
    """A copy of ``param_type`` (click's ``INT`` is shared) that refuses a number not written in ASCII digits before
    click reads it; None if it reads no number, or already is such a copy."""
    if getattr(param_type, "ascii_digits", False):
        return None
    if isinstance(param_type, click.types.IntParamType):
        pattern = _INTEGER
    elif isinstance(param_type, click.types.FloatParamType):
        pattern = _DECIMAL
    else:
        return None
    ascii_type = copy.copy(param_type)
    read = param_type.convert

    def convert(value, param, ctx):
        if isinstance(value, str) and not pattern.fullmatch(value):
            ascii_type.fail(f"{value!r} is not a number (the digits 0-9 only)", param, ctx)
        return read(value, param, ctx)

    ascii_type.convert = convert
    ascii_type.ascii_digits = True
    return ascii_type


def ascii_numbers(command: click.Command) -> click.Command:
    """``command`` (and every command of a group) with each of its number parameters reading ASCII digits only."""
    for param in command.params:
        ascii_type = _ascii_type(param.type)
        if ascii_type is not None:
            param.type = ascii_type
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            ascii_numbers(sub)
    return command


class Pair(click.Option):
    """A ``--x/--no-x`` flag pair refused when given both ways (``--short-game --standard-game``): exit 2.

    Its value is None when neither is given, else the one given (the same one twice is fine)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("default", None)
        super().__init__(*args, multiple=True, **kwargs)
        self.default = ()

    def process_value(self, ctx: click.Context, value):
        values = set(super().process_value(ctx, value) or ())
        if len(values) > 1:
            raise click.UsageError(f"give {self.opts[0]} or {self.secondary_opts[0]}, not both", ctx)
        return values.pop() if values else None


def one_of(*given: tuple[str, object]) -> None:
    """Exit 2 when more than one of ``given`` (an option's spelling, its value: None or False when not given) is
    given: options that contradict each other (``--time-limit 30 --no-time-limit``) are refused, nothing changed."""
    named = [name for name, value in given if value is not None and value is not False]
    if len(named) > 1:
        raise click.UsageError(f"give {' or '.join(named)}, not both" if len(named) == 2
                               else f"give one of {', '.join(named)}")


def edition_type(name: str) -> str:
    """An edition's name as an option takes it: one of the editions packaged (``cards``), else bad usage."""
    from banker.errors import BankerError
    from cards import check_edition

    try:
        return check_edition(name)
    except BankerError as exc:
        raise click.BadParameter(str(exc)) from None
