"""Where the ledgers' keys live by default: the XDG state folder; the config folder earlier releases used, moved once.

The keys are secrets of this machine, state it keeps between runs and not
settings to carry to another one: the XDG Base Directory spec puts them in
``$XDG_STATE_HOME`` (default ``~/.local/state``), so the folder is
``$XDG_STATE_HOME/monopoly-banker/keys`` (platformdirs' ``user_state_path``;
on macOS and Windows the config and state folders are one, and nothing moves).
Earlier releases kept them in ``~/.config/monopoly-banker/keys``, a folder
people sync into dotfiles repositories.

:func:`default_key_folder` moves that old folder the first time it finds it:

- the new place not there yet, the same file system: one ``rename`` of the
  folder (atomic: a kill leaves it in one place or the other, 0700 as it was);
- else (another file system, or both places there) file by file: each file
  is written into the new folder as a key is (a 0600 temporary file, fsync,
  rename, fsync the folder) and only then removed from the old one; a kill
  leaves each file in one place or both, and the next run finishes. A file
  already in the new folder is never overwritten: the same bytes, and the
  old copy goes; other bytes, and both are kept, the old one where it is,
  and said (``ledgers.json`` is merged, entry by entry, the same way);
- when the move can't be made at all (the new place not writable), the old
  folder stays the one in use, and that is said once.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import stat
from pathlib import Path

from .keys import APP_NAME, REGISTRY, private_folder, sync_folder, write_private

log = logging.getLogger("banker.keys")
_said: set[str] = set()


def default_key_folder() -> Path:
    """The keys folder when ``$BANKER_KEY_DIR`` names none: the state folder's, an old one moved there first."""
    from platformdirs import user_config_path, user_state_path

    new = user_state_path(APP_NAME) / "keys"
    old = user_config_path(APP_NAME) / "keys"
    if old == new or not old.exists():  # none there (a link to nothing is none either)
        return new
    return settle(old, new)


def settle(old: Path, new: Path) -> Path:
    """Move the keys folder ``old`` to ``new`` (:func:`move_keys`); the folder to use: ``new``, or ``old`` when
    the move couldn't be made. What stays behind is said once (the log: a command's stderr)."""
    try:
        kept = move_keys(old, new)
    except OSError as exc:
        if not os.path.lexists(old) and new.is_dir():
            return new  # another process moved it meanwhile
        _say(f"the ledgers' keys stay in {old}: they can't be moved to {new} ({exc.strerror or exc}); "
             "they are used where they are (docs/security.md)")
        return old
    if kept:
        one = len(kept) == 1
        _say(f"the ledgers' keys moved to {new}, but {old} still holds {' and '.join(kept)}: "
             f"{'it differs' if one else 'they differ'} from the {'file' if one else 'files'} of that name there, "
             "which the move never overwrites (or isn't a plain file); compare the two and remove the one not "
             "wanted (docs/security.md)")
    return new


def move_keys(old: Path, new: Path) -> list[str]:
    """Move every file of ``old`` into ``new``, never overwriting one; the names kept in ``old`` (they differ
    from the file of that name in ``new``, or aren't plain files). ``old`` is removed once empty."""
    private_folder(new.parent)
    if not os.path.lexists(new) and not old.is_symlink():
        try:
            os.rename(old, new)
        except OSError as exc:
            if exc.errno not in (errno.EXDEV, errno.EEXIST, errno.ENOTEMPTY):
                raise
        else:
            sync_folder(new.parent)
            sync_folder(old.parent)
            log.info("the ledgers' keys moved from %s to %s", old, new)
            return []
    private_folder(new)
    kept = [name for name in sorted(os.listdir(old)) if not _move_file(old / name, new / name)]
    sync_folder(old)
    if not kept:
        _remove_folder(old)
        log.info("the ledgers' keys moved from %s to %s", old, new)
    return kept


def _move_file(source: Path, target: Path) -> bool:
    """Put ``source`` at ``target`` (never over other bytes) and remove it; False when it must stay."""
    if source.name.startswith(".") and source.name.endswith(".tmp"):
        source.unlink(missing_ok=True)  # a temporary file a killed write left: never a key
        return True
    data = _read(source)
    if data is None:
        return not os.path.lexists(source)  # gone meanwhile (moved by another process): nothing to keep
    there = _read(target)
    if source.name == REGISTRY:
        data, there, clash = _merged_registry(data, there)
        if data != there:
            write_private(target, data)
        if clash:
            return False
    elif there is None:
        write_private(target, data)
    elif there != data:
        return False
    source.unlink(missing_ok=True)
    return True


def _read(path: Path) -> bytes | None:
    """The bytes of the plain file ``path``, None when it is missing or not a plain file (a link, a folder)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read()
    finally:
        os.close(fd)


def _merged_registry(old: bytes, new: bytes | None) -> tuple[bytes, bytes | None, bool]:
    """(the merged ``ledgers.json``, the new place's as it was, whether an entry of ``old`` differs from one there):
    the new place's entries win; one that can't be read is kept as it is and the old file stays."""
    try:
        theirs = json.loads(old.decode("utf-8"))
        ours = json.loads(new.decode("utf-8")) if new is not None else {}
    except (UnicodeDecodeError, ValueError, RecursionError):
        return new if new is not None else old, new, new is not None
    if not isinstance(theirs, dict) or not isinstance(ours, dict):
        return new if new is not None else old, new, new is not None
    clash = any(ours.get(path, ledger) != ledger for path, ledger in theirs.items())
    merged = {**theirs, **ours}
    if merged == ours and new is not None:
        return new, new, clash
    return json.dumps(merged, indent=1, sort_keys=True).encode("utf-8"), new, clash


def _remove_folder(old: Path) -> None:
    """The emptied old folder gone (a symbolic link to it: the link only, what it names left as it is)."""
    try:
        old.unlink() if old.is_symlink() else old.rmdir()
    except OSError:
        return
    sync_folder(old.parent)


def _say(text: str) -> None:
    if text not in _said:
        _said.add(text)
        log.warning("%s", text)
