"""The ledger's key: export it to a file (or a QR code), import it on another machine, adopt a ledger without it."""

from __future__ import annotations

import stat
import sys

from pathlib import Path

import click

from store.keys import KEY_TEXT_PREFIX, key_text  # the one spelling of an exported key

from .common import UNUSABLE, USAGE, db_option, fail, failing, pin_option, resolve_db
from .terminal_qr import draw_qr

#: The first words of an exported key: ``banker-key:v1:<ledger id>:<64 hex digits>`` (store.keys.key_text).
PREFIX = KEY_TEXT_PREFIX


def parse_key_text(text: str) -> tuple[str, bytes]:
    """(ledger id, key) of an exported key's text; exit 2 naming what is wrong."""
    line = text.strip()
    if not line.startswith(PREFIX) or line.count(":") != 3:
        fail(f"not an exported banker key (it starts '{PREFIX}<ledger id>:<key>')", USAGE)
    ledger_id, _, hexed = line[len(PREFIX):].partition(":")
    try:
        key = bytes.fromhex(hexed)
    except ValueError:
        key = b""
    if not ledger_id.isalnum() or not ledger_id.isascii() or len(key) != 32:
        fail("the exported key is damaged (a ledger id, then 64 hex digits)", USAGE)
    return ledger_id, key


def ledger_id_of(db: Path | None) -> str:
    from runtime.adoption import head_of
    from store import is_ledger_file

    path = resolve_db(db)
    if not path.exists():
        fail(f"no ledger at {path}", UNUSABLE)
    if not is_ledger_file(path):
        fail(f"{path} is not a banker ledger", UNUSABLE)
    with failing():
        found = head_of(path)
    if found is None:
        fail(f"{path} has no journal yet", UNUSABLE)
    return found[0]


@click.group("key")
def key_group() -> None:
    """The ledger's key: export it, import it on another machine, or adopt a ledger whose key is lost."""


@key_group.command("export")
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the key to FILE (0600, atomically; an existing different file is never replaced).")
@click.option("--qr", is_flag=True, help="Show the key as a QR code on the terminal (photograph it, keep it safe).")
@db_option
def key_export(output: Path | None, qr: bool, db: Path | None) -> None:
    """Export the ledger's key, to keep one chain across machines (whoever holds it can forge the journal)."""
    from store import Keyring

    if output is None and not qr:
        fail("say where: -o FILE, or --qr", USAGE)
    ledger_id = ledger_id_of(db)
    keyring = Keyring()
    with failing():
        key = keyring.key(ledger_id)
    if key is None:
        fail(f"the key of ledger {ledger_id} is not on this machine ({keyring.key_file(ledger_id)})", UNUSABLE)
    text = key_text(ledger_id, key)
    if output is not None:
        _write_key_file(output, text)
        click.echo(f"the key of ledger {ledger_id} is in {output} (0600): keep it apart from the ledger")
    if qr:
        draw_qr(text, error="m")


def _write_key_file(output: Path, text: str) -> None:
    """Write the key's ``text`` to ``output`` (0600, atomically), only to a plain file: one there already is
    never replaced unless it holds this same key (exit 2, nothing written)."""
    from store.keys import write_private

    if output.is_symlink() or output.exists() and not stat.S_ISREG(output.stat().st_mode):
        fail(f"{output} is not a plain file: the key is written only to one", USAGE)
    if output.exists() and output.read_bytes().strip() != text.encode("ascii"):
        fail(f"{output} exists and holds something else: it is never replaced", USAGE)
    with failing(f"cannot write {output}: "):
        write_private(output, text.encode("ascii") + b"\n")


@key_group.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def key_import(file: Path) -> None:
    """Keep an exported key (FILE, "-" for stdin) in this machine's keys folder; a different key is never replaced."""
    from store import Keyring

    try:
        if str(file) == "-":
            raw = sys.stdin.read(4096)
        else:
            with open(file, "rb") as f:  # an exported key is one short line: never read more (/dev/zero)
                raw = f.read(4096).decode("ascii")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {file}: {getattr(exc, 'strerror', None) or exc}", USAGE)
    ledger_id, key = parse_key_text(raw)
    keyring = Keyring()
    with failing():
        added = keyring.import_key(ledger_id, key)
    where = keyring.key_file(ledger_id)
    click.echo(f"the key of ledger {ledger_id} is kept in {where}" + ("" if added else " (it was already)"))


@key_group.command("adopt")
@pin_option
@db_option
def key_adopt(pin: str | None, db: Path | None) -> None:
    """Adopt a ledger whose key is lost: a new key vouches from a record in its journal on (verify says so)."""
    from runtime.adoption import adopt

    path = resolve_db(db)
    ledger_id_of(db)
    with failing():  # a PIN refused: exit 4; the key here, a ledger in use: exit 3
        record = adopt(path, pin)
    click.echo(f"adopted {path} under a new key from entry {record.from_seq}: "
               "'banker ledger verify' checks the entries before it by their contents only")
