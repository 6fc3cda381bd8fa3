"""Where an export goes: a private file replaced whole, or a FIFO or device written through, never replaced.

``banker ledger export -o PATH`` (and anything else that writes a file for
the user) opens its destination here. The rules (docs/security.md, "What
leaves the unit"): a regular file or a missing path is written to a
temporary file beside it, created exclusively and never through a link
(``O_EXCL | O_NOFOLLOW``), synced, then renamed into place, so it appears
whole or not at all and is readable only by its owner; a FIFO, a character
device or a link to one (``/dev/null``, ``/dev/stdout``) is written through
as the shell's ``>`` would, never replaced by a regular file; anything else
is refused with exit 3, as is a destination that can't be written (no permission, no such folder, a
read-only or full disk); a folder is exit 2. A killed export leaves only its temporary file,
which the next export to the same place removes.
"""

from __future__ import annotations

import errno
import glob
import os
import secrets
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from store.keys import sync_folder

from .common import UNUSABLE, USAGE, fail


def _code(exc: OSError) -> int:
    """The exit code of a destination that can't be written (docs/cli.md): a path that can't name a file
    (too long, through a file) is bad usage, 2; one that can't be written here (no permission, a folder that
    isn't there, a read-only or full disk) can't be used, 3."""
    return USAGE if exc.errno in (errno.ENAMETOOLONG, errno.ENOTDIR) else UNUSABLE


def _part_files(target: Path) -> Iterator[Path]:
    """The temporary files of exports to ``target`` whose process is gone (a killed export's leftovers)."""
    for part in target.parent.glob(f".{glob.escape(target.name)}.*.part"):
        pid = part.name[len(target.name) + 2:-len(".part")].split(".", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            yield part
        except OSError:
            pass  # alive (another user's): not ours to remove


def _write_through(target: Path, mode: int):
    """The file object for an ``-o`` that isn't a regular file: a FIFO, a character device or a link is written
    through, as the shell's ``>`` would; anything else (a block device, a socket, a folder) is refused, exit 3."""
    if stat.S_ISDIR(mode):
        fail(f"cannot write {target}: it is a folder", USAGE)
    if not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISREG(mode)):
        fail(f"cannot write {target}: it is neither a file, a FIFO nor a character device", UNUSABLE)
    truncate = os.O_TRUNC if stat.S_ISREG(mode) else 0  # a link to a file (/dev/stdout sent to one): from its start
    try:
        fd = os.open(target, os.O_WRONLY | os.O_NOCTTY | os.O_CLOEXEC | truncate)
    except OSError as exc:
        fail(f"cannot write {target}: {exc.strerror}", UNUSABLE)
    return os.fdopen(fd, "w", encoding="utf-8", newline="")


@contextmanager
def private_output(path: Path | None) -> Iterator:
    """A text file to write to, readable only by its owner (0600), or stdout for None or ``-``.

    A regular file (or a missing path) appears whole or not at all: the text is
    written to a temporary file beside it (created exclusively, never through
    a link), synced and renamed into place. A FIFO, a character device
    (``/dev/null``, a terminal) or a link to one of those or to a file
    (``/dev/stdout``) is written through, never replaced; a link to nothing, a
    block device or a socket is refused (exit 3). Temporary files left by killed exports are removed first.
    """
    if path is None or str(path) == "-":
        yield sys.stdout
        return
    target = Path(path)
    through = _not_a_file(target)
    if through is not None:
        with _write_through(target, through.st_mode) as out:
            yield out
        return
    with _written_whole(target) as out:
        yield out


def _not_a_file(target: Path):
    """The status of what is at ``target`` to be written through (a link followed to what it names), or None for
    a regular file or nothing there, to be replaced whole; exit 3 for a link to nothing."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return None
    except OSError as exc:
        fail(f"cannot write {target}: {exc.strerror}", _code(exc))
    if stat.S_ISREG(st.st_mode):
        return None
    if stat.S_ISLNK(st.st_mode):
        try:
            return os.stat(target)
        except OSError as exc:
            fail(f"cannot write {target}: a link to {os.readlink(target)}: {exc.strerror}", UNUSABLE)
    return st


@contextmanager
def _written_whole(target: Path) -> Iterator:
    """``target`` written whole or not at all (0600): through a temporary file beside it, created exclusively and
    never through a link, synced and renamed into place; the ones killed exports left are removed first."""
    for stale in _part_files(target):
        try:
            os.unlink(stale)
        except OSError:
            pass
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}.part")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(temporary, flags, 0o600)
    except OSError as exc:
        fail(f"cannot write {target}: {exc.strerror}", _code(exc))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, target)
        sync_folder(target.parent)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
