"""The config file as bytes and as TOML, bounded: a file larger than any real config, or nested deeper than the
TOML parser's recursion can take, is refused with a clear message before it is read whole or parsed."""

from __future__ import annotations

import os

from banker.errors import ConfigError

#: The largest config file read, in bytes (a real one is a few hundred; ``/dev/zero`` is refused, not read).
MAX_CONFIG_BYTES = 64 * 1024
#: The deepest nesting of arrays and inline tables a config may have (a real one needs 2).
MAX_DEPTH = 16


def read_config_bytes(path: str | os.PathLike) -> bytes:
    """The bytes of the config file at ``path``, at most :data:`MAX_CONFIG_BYTES` of them.

    :class:`ConfigError` naming the file when it is larger (an endless file
    stops there); :class:`OSError` when it can't be read.
    """
    with open(path, "rb") as file:
        data = file.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: larger than {MAX_CONFIG_BYTES:,} bytes (the limit for a config file)")
    return data


def _depth(text: str) -> int:
    """How deep arrays and inline tables nest in TOML ``text`` (strings and comments skipped; roughly, never less)."""
    deepest = depth = i = 0
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            i = _string_end(text, i)
            continue
        if ch == "#":
            i = text.find("\n", i)
            i = len(text) if i < 0 else i
            continue
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
        i += 1
    return deepest


def _string_end(text: str, start: int) -> int:
    """Where the string opened by the quote at ``start`` has ended: after its closing quote, or after the line
    (a TOML string holds no bare newline); a backslash in a basic ("...") string keeps the next character in."""
    quote, i = text[start], start + 1
    while i < len(text):
        ch = text[i]
        if ch == "\\" and quote == '"':
            i += 2
            continue
        if ch == quote or ch == "\n":
            return i + 1
        i += 1
    return i


def checked_toml(text: str, source: str) -> dict:
    """The TOML ``text`` as a table; :class:`ConfigError` naming ``source`` when it is larger than
    :data:`MAX_CONFIG_BYTES`, nested deeper than :data:`MAX_DEPTH` (the parser recurses once a level) or not TOML."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{source}: larger than {MAX_CONFIG_BYTES:,} bytes (the limit for a config file)")
    if _depth(text) > MAX_DEPTH:
        raise ConfigError(f"{source}: arrays or tables nested more than {MAX_DEPTH} deep")
    import tomllib  # only when a config file is read: every command without one reads none

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source}: not valid TOML ({exc})") from None
    except RecursionError:  # a nesting the rough count missed
        raise ConfigError(f"{source}: arrays or tables nested too deep") from None
    return data
