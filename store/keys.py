"""The secret that keys the journal's chain, and the anchor of its head, both kept apart from the ledger.

A ledger names itself by a random ``ledger_id`` (in its ``meta`` table,
copied into every backup). Its key is 32 random bytes in
``<keys folder>/<ledger_id>.key``; the anchor, the number and hash of the
journal's last entry at the last checkpoint, backup or clean stop, is
``<ledger_id>.anchor`` beside it. The keys folder is ``$BANKER_KEY_DIR``, else
``keys`` in the user's config folder: not the ledger's folder and not its
backups, so a copy of the ledger alone can't be re-chained. Files are 0600
in 0700 folders; the anchor is replaced atomically (temporary file, fsync,
rename).
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

from banker.errors import LedgerError

KEY_ENV = "BANKER_KEY_DIR"
APP_NAME = "monopoly-banker"
KEY_BYTES = 32


def key_folder() -> Path:
    """Where the ledgers' keys and anchors are kept."""
    named = os.environ.get(KEY_ENV)
    if named:
        return Path(named).expanduser()
    from platformdirs import user_config_path

    return user_config_path(APP_NAME) / "keys"


def private_folder(folder: Path) -> None:
    """Create ``folder`` and every missing parent 0700 (an existing folder is left as it is)."""
    missing = []
    current = folder
    while not current.exists():
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for path in reversed(missing):
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            pass
        os.chmod(path, 0o700)  # mkdir's mode is cut by the umask


def write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically: a 0600 temporary file, fsync, rename, fsync the folder.

    The temporary file (``.<name>.<pid>.<random>.tmp``) is created exclusively and never through a
    symlink (``O_EXCL | O_NOFOLLOW``): one planted under its name makes this fail, not write elsewhere.
    One left by a killed process is removed by :func:`store.backups.clean_stale_files`.
    """
    temp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temp, os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class Keyring:
    """The key and anchor files of the ledgers in ``folder`` (default :func:`key_folder`)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else key_folder()

    def _file(self, ledger_id: str, suffix: str) -> Path:
        if not ledger_id.isalnum():
            raise LedgerError(f"not a ledger id: {ledger_id!r}")
        return self.folder / f"{ledger_id}{suffix}"

    def key(self, ledger_id: str) -> bytes | None:
        """The ledger's key, or None when this machine doesn't hold it."""
        path = self._file(ledger_id, ".key")
        try:
            text = path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError) as exc:
            raise LedgerError(f"cannot read the ledger's key {path}: {exc}") from exc
        try:
            key = bytes.fromhex(text)
        except ValueError:
            raise LedgerError(f"the ledger's key {path} is damaged") from None
        if len(key) != KEY_BYTES:
            raise LedgerError(f"the ledger's key {path} is damaged")
        return key

    def new_key(self, ledger_id: str) -> bytes:
        """Make and keep a fresh key for a new ledger."""
        key = secrets.token_bytes(KEY_BYTES)
        try:
            private_folder(self.folder)
            write_private(self._file(ledger_id, ".key"), key.hex().encode("ascii") + b"\n")
        except OSError as exc:
            raise LedgerError(f"cannot keep the ledger's key in {self.folder}: {exc.strerror}") from exc
        return key

    def anchor(self, ledger_id: str) -> tuple[int, str] | None:
        """The (entry number, hash) last anchored for the ledger, or None."""
        path = self._file(ledger_id, ".anchor")
        try:
            data = json.loads(path.read_text(encoding="ascii"))
            return int(data["seq"]), str(data["hash"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
            return (-1, "")  # damaged: verify says so

    def set_anchor(self, ledger_id: str, seq: int, hash_: str) -> None:
        try:
            private_folder(self.folder)
            write_private(self._file(ledger_id, ".anchor"), json.dumps({"seq": seq, "hash": hash_}).encode("ascii"))
        except OSError as exc:
            raise LedgerError(f"cannot anchor the ledger's head in {self.folder}: {exc.strerror}") from exc
