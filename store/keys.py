"""The secret that keys the journal's chain, and the anchor of its head, both kept apart from the ledger.

A ledger names itself by a random ``ledger_id`` (in its ``meta`` table,
copied into every backup). Its key is 32 random bytes in
``<keys folder>/<ledger_id>.key``; the anchor, the number and hash of the
journal's last entry at the last checkpoint, backup or clean stop, is
``<ledger_id>.anchor`` beside it. The keys folder is ``$BANKER_KEY_DIR``, else
``keys`` in the user's state folder (:mod:`store.key_home`, which moves the
config folder's of earlier releases there): not the ledger's folder and not
its backups, so a copy of the ledger alone can't be re-chained. Files are 0600
in 0700 folders: a key file or folder open to others is tightened when it is
read, and refused (naming it) when it can't be made private. Keys and the
anchor are replaced atomically (a temporary file created exclusively, never
through a symbolic link, fsynced, then renamed); the anchor is read
range-checked (:func:`parse_anchor`: damaged, never a crash).
``ledgers.json`` beside them maps each keyed ledger's path to its id
(:meth:`Keyring.register`), so a file of an earlier release put there is
refused (:mod:`store.trust`).
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
    from .key_home import default_key_folder

    return default_key_folder()


def private_folder(folder: Path) -> None:
    """Create ``folder`` and every missing parent 0700 (an existing folder is left as it is), each new one's entry
    made durable (its parent fsynced: else a power cut can take the folder and all written into it since)."""
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
        sync_folder(path.parent)


#: How a temporary file is created: exclusively (never an existing file), never through a planted symlink.
EXCLUSIVE = os.O_CREAT | os.O_EXCL | os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0)


def write_private(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically: a 0600 temporary file, fsync, rename, fsync the folder.

    The temporary file (``.<name>.<pid>.<random>.tmp``) is created exclusively and never through a
    symlink (``O_EXCL | O_NOFOLLOW``): one planted under its name makes this fail, not write elsewhere.
    One left by a killed process is removed by :func:`store.backups.clean_stale_files`.
    """
    temp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temp, EXCLUSIVE, 0o600)  # fails on anything already there: nothing of ours to remove
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


def make_private(path: Path, mode: int, what: str) -> None:
    """Tighten ``path`` (a file: 0600, a folder: 0700) when others may read it; :class:`LedgerError` naming it
    when it can't be made private (another owner's, a file system without modes such as a FAT stick)."""
    try:
        st = os.stat(path)
        if st.st_mode & 0o077:
            os.chmod(path, mode)
            st = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise LedgerError(f"{what} {path} is open to others and can't be made private ({exc.strerror}): "
                          f"make it {mode:o} and its owner the banker's user (docs/install-pi.md)") from exc
    if st.st_mode & 0o077:
        raise LedgerError(f"{what} {path} is open to others (mode {st.st_mode & 0o777:o}) and can't be made "
                          f"private: make it {mode:o} and its owner the banker's user (docs/install-pi.md)")


def read_private(path: Path) -> bytes | None:
    """The contents of the private file ``path`` (tightened first if open to others), None when missing;
    a symbolic link in its place is refused."""
    make_private(path.parent, 0o700, "the keys folder")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LedgerError(f"cannot read {path}: {exc.strerror} (a key file must be a plain file)") from exc
    try:
        if os.fstat(fd).st_mode & 0o077:
            try:
                os.fchmod(fd, 0o600)  # the open file itself: a link swapped in meanwhile is never changed
            except OSError:
                pass
            if os.fstat(fd).st_mode & 0o077:
                raise LedgerError(f"the key file {path} is readable by others and can't be made private: make it "
                                  "0600 and its owner the banker's user (docs/install-pi.md)")
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read(4096)
    finally:
        os.close(fd)


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
            data = read_private(path)
            if data is None:
                return None
            text = data.decode("ascii").strip()
        except LedgerError:
            raise
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

    def key_file(self, ledger_id: str) -> Path:
        return self._file(ledger_id, ".key")

    def import_key(self, ledger_id: str, key: bytes) -> bool:
        """Keep ``key`` as the ledger's (0600, atomically); False when it was already kept. :class:`LedgerError`
        when a different key is kept for it (never overwritten) or the folder can't be written."""
        if len(key) != KEY_BYTES:
            raise LedgerError(f"a ledger's key is {KEY_BYTES} bytes, not {len(key)}")
        kept = self.key(ledger_id)
        if kept is not None:
            if kept != key:
                raise LedgerError(f"a different key is kept for ledger {ledger_id} in {self.key_file(ledger_id)}: "
                                  "it is never overwritten")
            return False
        self._write(self.key_file(ledger_id), key.hex().encode("ascii") + b"\n")
        return True

    def stage_key(self, ledger_id: str) -> bytes:
        """A fresh key for adopting the ledger, kept aside (``<id>.key.adopting``) until :meth:`commit_staged`."""
        key = secrets.token_bytes(KEY_BYTES)
        self._write(self._file(ledger_id, ".key.adopting"), key.hex().encode("ascii") + b"\n")
        return key

    def staged_key(self, ledger_id: str) -> bytes | None:
        """The key an adoption left aside (a crash before it was kept), or None."""
        data = read_private(self._file(ledger_id, ".key.adopting"))
        try:
            key = bytes.fromhex(data.decode("ascii").strip()) if data else None
        except (UnicodeDecodeError, ValueError):
            return None
        return key if key is not None and len(key) == KEY_BYTES else None

    def missing_key_advice(self, ledger_id: str) -> str:
        """What to do about the ledger's key missing here: finish an adoption cut short (its key staged), or copy it."""
        if self.staged_key(ledger_id) is not None:
            return (f"An adoption of it on this machine was cut short (its new key waits in {ledger_id}.key.adopting):"
                    " run the same 'banker game restore --backup FILE' again (or 'banker key adopt' for one in "
                    "place) to finish it (docs/security.md)")
        return "Copy its .key file there from the machine that wrote it, or set BANKER_KEY_DIR (docs/security.md)"

    def commit_staged(self, ledger_id: str) -> None:
        """The staged key becomes the ledger's key (by rename: never a half-written key)."""
        try:
            os.replace(self._file(ledger_id, ".key.adopting"), self.key_file(ledger_id))
            sync_folder(self.folder)
        except OSError as exc:
            raise LedgerError(f"cannot keep the ledger's key in {self.folder}: {exc.strerror}") from exc

    def _write(self, path: Path, data: bytes) -> None:
        try:
            private_folder(self.folder)
            write_private(path, data)
        except OSError as exc:
            if isinstance(exc, LedgerError):
                raise
            raise LedgerError(f"cannot keep the ledger's key in {self.folder}: {exc.strerror}") from exc

    def anchor(self, ledger_id: str) -> tuple[int, str] | None:
        """The (entry number, hash) last anchored for the ledger, or None; ``(-1, "")`` when the file is damaged
        (not JSON, a number out of range or not a whole number, a hash that is not 64 hex digits): verify says so."""
        path = self._file(ledger_id, ".anchor")
        try:
            text = path.read_text(encoding="ascii")
        except FileNotFoundError:
            return None
        except (OSError, UnicodeDecodeError):
            return DAMAGED
        return parse_anchor(text)

    def set_anchor(self, ledger_id: str, seq: int, hash_: str) -> None:
        try:
            private_folder(self.folder)
            write_private(self._file(ledger_id, ".anchor"), json.dumps({"seq": seq, "hash": hash_}).encode("ascii"))
        except OSError as exc:
            raise LedgerError(f"cannot anchor the ledger's head in {self.folder}: {exc.strerror}") from exc

    # -- the banker's authority kept beside the anchor ---------------------------------------

    def kept_authority(self, ledger_id: str) -> tuple[str | None, tuple[float, ...]] | None:
        """The banker's PIN verifier and recent wrong tries as the trusted journal last had them, or None (never
        kept, or damaged). A journal put back from an older copy can't take them back: they are checked here."""
        try:
            data = json.loads(self._file(ledger_id, ".pin").read_text(encoding="ascii"))
        except (OSError, ValueError, RecursionError, UnicodeDecodeError):  # missing, or damaged: nothing kept
            return None
        if not isinstance(data, dict):
            return None
        verifier, failures = data.get("verifier"), data.get("failures")
        if not (verifier is None or isinstance(verifier, str)) or not isinstance(failures, list):
            return None
        kept = tuple(float(t) for t in failures if type(t) in (int, float) and 0 <= t < 1e11)
        return verifier, kept[-32:]

    def keep_authority(self, ledger_id: str, verifier: str | None, failures: tuple[float, ...]) -> None:
        """Keep the banker's PIN verifier and the recent wrong tries beside the anchor (written when they change)."""
        data = json.dumps({"verifier": verifier, "failures": list(failures[-32:])}).encode("ascii")
        try:
            private_folder(self.folder)
            write_private(self._file(ledger_id, ".pin"), data)
        except OSError as exc:
            raise LedgerError(f"cannot keep the banker's PIN beside the anchor in {self.folder}: {exc.strerror}") from exc

    # -- the ledgers this folder has anchored ---------------------------------------------

    def registered(self, path: str | os.PathLike) -> str | None:
        """The id of the keyed ledger this folder knows at ``path`` (resolved), or None."""
        return self._registry().get(_where(path))

    def incoming(self, path: str | os.PathLike) -> str | None:
        """The id of the ledger a restore is putting at ``path`` (:meth:`admit`), until it is registered there."""
        return self._registry().get(_where(path) + INCOMING)

    def admit(self, path: str | os.PathLike, ledger_id: str) -> None:
        """Before a restore puts the keyed ledger ``ledger_id`` at ``path``: both it and the one there now are
        accepted until :meth:`register` names the one in place (a kill between leaves either accepted)."""
        self._write_registry({**self._registry(), _where(path) + INCOMING: ledger_id})

    def register(self, path: str | os.PathLike, ledger_id: str) -> None:
        """Remember that the keyed ledger ``ledger_id`` lives at ``path``: a file of an earlier release found there
        later is refused, not migrated (a downgrade)."""
        ledgers = self._registry()
        if ledgers.get(_where(path)) == ledger_id and _where(path) + INCOMING not in ledgers:
            return
        ledgers[_where(path)] = ledger_id
        ledgers.pop(_where(path) + INCOMING, None)
        self._write_registry(ledgers)

    def _write_registry(self, ledgers: dict[str, str]) -> None:
        try:
            private_folder(self.folder)
            write_private(self.folder / REGISTRY, json.dumps(ledgers, indent=1, sort_keys=True).encode("utf-8"))
        except OSError as exc:
            raise LedgerError(f"cannot note the ledger in {self.folder / REGISTRY}: {exc.strerror}") from exc

    def _registry(self) -> dict[str, str]:
        try:
            data = json.loads((self.folder / REGISTRY).read_text(encoding="utf-8"))
        except (FileNotFoundError, NotADirectoryError):  # no list, or no keys folder, there yet
            return {}
        except (OSError, ValueError, RecursionError) as exc:
            raise LedgerError(f"the list of known ledgers {self.folder / REGISTRY} is damaged ({exc}); "
                              "move it aside to start it afresh") from None
        if not isinstance(data, dict):
            raise LedgerError(f"the list of known ledgers {self.folder / REGISTRY} is damaged; "
                              "move it aside to start it afresh")
        return {str(k): str(v) for k, v in data.items() if isinstance(v, str) and v.isalnum()}


#: The anchor a damaged anchor file reads as.
DAMAGED = (-1, "")
#: The largest entry number an anchor may hold (SQLite's integer).
MAX_SEQ = 2**63 - 1
#: The file in the keys folder naming each keyed ledger's path and id.
REGISTRY = "ledgers.json"
#: Appended to a path in the registry: the ledger a restore is bringing there (:meth:`Keyring.admit`).
INCOMING = "#incoming"


def parse_anchor(text: str) -> tuple[int, str]:
    """An anchor file's ``(seq, hash)``, range-checked; :data:`DAMAGED` for anything else (never raises)."""
    try:
        data = json.loads(text, parse_float=lambda _: None, parse_constant=lambda _: None)
    except (ValueError, RecursionError):
        return DAMAGED
    if not isinstance(data, dict):
        return DAMAGED
    seq, digest = data.get("seq"), data.get("hash")
    if type(seq) is not int or not 0 <= seq <= MAX_SEQ or not isinstance(digest, str):
        return DAMAGED
    if not (digest == "" and seq == 0) and (len(digest) != 64 or digest.strip("0123456789abcdef")):
        return DAMAGED
    return seq, digest


def _where(path: str | os.PathLike) -> str:
    return str(Path(path).resolve())


#: The first words of a key as it is exported (a file, a QR code): ``banker-key:v1:<ledger id>:<64 hex digits>``.
KEY_TEXT_PREFIX = "banker-key:v1:"


def key_text(ledger_id: str, key: bytes) -> str:
    """The ledger's key as ``banker key export`` writes it and ``banker key import`` reads it."""
    return f"{KEY_TEXT_PREFIX}{ledger_id}:{key.hex()}"
