"""A recorded strace of a ``banker`` command read as the operations it asked of the file system, and the disk they
leave after a power cut: what was made durable kept, what was not dropped or torn (the ALICE / CrashMonkey model).

:func:`parse` reads a log written with ``strace -f -y -xx`` (every buffer and path in hex) into :class:`Op`\\ s on
the files under one folder: content changes on an inode (``write``, ``trunc``), changes of the directory entries
(``create``, ``rename``, ``unlink``, ``mkdir``, ``rmdir``, ``link``), syncs (``sync`` of a file's inode or of a
folder) and what the command printed (``stdout``). A rename moves the inode, so a write through a descriptor
opened before it lands in the file under its new name.

:func:`durable_at` says when each change became durable, pessimistically: a content change at the next
fsync/fdatasync of its inode, a directory entry at the next fsync of the folder holding it (both folders for
a rename); nothing else (not the fsync of the file a new entry names, not a later fsync of another file, not
``close``). :class:`Disk` applies a chosen list of operations to the world as it was, and writes it out.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

#: The calls recorded: every one that changes a file or a folder, opens or duplicates a descriptor, or moves one.
TRACED = ("open,openat,creat,close,dup,dup2,dup3,fcntl,lseek,write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync,"
          "sync_file_range,rename,renameat,renameat2,unlink,unlinkat,link,linkat,ftruncate,truncate,mkdir,mkdirat,"
          "rmdir,fallocate")
CONTENT = ("write", "trunc")
ENTRIES = ("create", "rename", "unlink", "mkdir", "rmdir", "link")
SECTOR = 512
HEX = re.compile(r"\\x([0-9a-f]{2})")
STRING = re.compile(r'"((?:\\x[0-9a-f]{2})*)"')
LINE = re.compile(r"^(\d+) +(\w+)\((.*)\) += (-?\d+)")


def unhex(text: str) -> bytes:
    return bytes(int(h, 16) for h in HEX.findall(text))


@dataclass(frozen=True)
class Op:
    """One change asked of the file system: ``kind`` on ``inode`` (content) or ``path``/``to`` (entries)."""

    kind: str
    inode: int | None = None
    path: str = ""
    to: str = ""
    offset: int = 0
    data: bytes = b""
    size: int = 0


@dataclass
class _Open:
    inode: int
    offset: int = 0
    append: bool = False


@dataclass
class Parser:
    """Reads the log line by line, keeping the descriptors and names it needs to place each change."""

    root: str
    names: dict[str, int]
    dirs: set[str]
    sizes: dict[int, int]
    fds: dict[int, _Open | str] = field(default_factory=dict)
    ops: list[Op] = field(default_factory=list)
    pending: dict[str, str] = field(default_factory=dict)
    next_inode: int = 0
    #: Real paths of folders linked into the world -> their path through the link.
    aliases: dict[str, str] = field(default_factory=dict)

    def inside(self, path: str) -> bool:
        return path == self.root or path.startswith(self.root + "/")

    def line(self, raw: str) -> None:
        raw = raw.rstrip("\n")
        pid, _, rest = raw.partition(" ")
        rest = rest.lstrip()  # strace pads a pid to five columns: "3233  write(...", "12345 write(..."
        if rest.endswith("<unfinished ...>"):
            self.pending[pid] = rest[: -len("<unfinished ...>")]
            if rest.startswith("close("):  # the descriptor is gone as the call begins: another thread may be
                self.on_close(rest[len("close("):], 0)  # given its number before this line's end is logged
            return
        if rest.startswith("<... "):
            begun = self.pending.pop(pid, "")
            if begun.startswith("close("):
                return  # done as it began (above): its end must not take the number from whoever has it now
            rest = begun + rest.split(" resumed>", 1)[1]
        found = LINE.match(f"{pid} {rest.strip()}")
        if found is None or int(found.group(4)) < 0:
            return
        _, name, args, result = found.groups()
        handler = getattr(self, f"on_{name.removesuffix('64')}", None)
        if handler is not None:
            handler(args, int(result))

    # -- paths and descriptors ------------------------------------------------------------------------------

    def path(self, args: str, index: int = 0) -> str:
        """The ``index``-th path argument, made absolute by the folder descriptor before it (``AT_FDCWD</cwd>``)."""
        strings = STRING.findall(args)
        text = unhex(strings[index]).decode(errors="replace")
        if not text.startswith("/"):
            bases = re.findall(r"(?:AT_FDCWD|\d+)<((?:\\x[0-9a-f]{2})*)>", args)
            text = os.path.join(unhex(bases[index]).decode(errors="replace") if len(bases) > index else self.root, text)
        text = os.path.normpath(text)
        for real, seen in self.aliases.items():  # a folder reached through a link (the stick), by its name here
            if text == real or text.startswith(real + "/"):
                return seen + text[len(real):]
        return text

    @staticmethod
    def fd(args: str) -> int:
        return int(args.split("<", 1)[0].split(",", 1)[0])

    def new_inode(self) -> int:
        self.next_inode -= 1
        self.sizes[self.next_inode] = 0
        return self.next_inode

    # -- the calls ---------------------------------------------------------------------------------------------

    def on_openat(self, args: str, result: int) -> None:
        path = self.path(args)
        if not self.inside(path):
            return
        if "O_DIRECTORY" in args or path in self.dirs:
            self.fds[result] = path
            return
        inode = self.names.get(path)
        if inode is None:
            if "O_CREAT" not in args:
                return
            inode = self.names[path] = self.new_inode()
            self.ops.append(Op("create", inode, path))
        elif "O_TRUNC" in args:
            self.ops.append(Op("trunc", inode, size=0))
            self.sizes[inode] = 0
        self.fds[result] = _Open(inode, append="O_APPEND" in args)

    on_open = on_openat

    def on_creat(self, args: str, result: int) -> None:
        self.on_openat(args.replace(",", ", O_CREAT|O_TRUNC,", 1), result)

    def on_close(self, args: str, result: int) -> None:
        self.fds.pop(self.fd(args), None)

    def on_dup(self, args: str, result: int) -> None:
        if self.fd(args) in self.fds:
            self.fds[result] = self.fds[self.fd(args)]

    on_dup2 = on_dup3 = on_dup

    def on_fcntl(self, args: str, result: int) -> None:
        if "F_DUPFD" in args:
            self.on_dup(args, result)

    def on_lseek(self, args: str, result: int) -> None:
        opened = self.fds.get(self.fd(args))
        if isinstance(opened, _Open):
            opened.offset = result

    def opened(self, args: str) -> _Open | str | None:
        """What the call's descriptor is open on: the parser's own record, checked against the path strace -y
        prints beside it (another thread may have closed and reused the number between two lines of the log)."""
        fd = self.fd(args)
        known = self.fds.get(fd)
        shown = re.match(r"\s*\d+<((?:\\x[0-9a-f]{2})*)>", args)
        if shown is None:
            return known
        path = self.path(f'"{shown.group(1)}"')
        inode = self.names.get(path)
        if inode is not None and not (isinstance(known, _Open) and known.inode == inode):
            known = self.fds[fd] = _Open(inode)
        elif inode is None and path in self.dirs and known != path:
            known = self.fds[fd] = path
        return known

    def _write(self, fd: int, data: bytes, offset: int | None, args: str | None = None) -> None:
        if fd == 1:
            self.ops.append(Op("stdout", data=data))
        opened = self.fds.get(fd) if args is None else self.opened(args)
        if not isinstance(opened, _Open):
            return
        at = offset if offset is not None else (self.sizes[opened.inode] if opened.append else opened.offset)
        self.ops.append(Op("write", opened.inode, offset=at, data=data))
        self.sizes[opened.inode] = max(self.sizes[opened.inode], at + len(data))
        if offset is None:
            opened.offset = at + len(data)

    def on_write(self, args: str, result: int) -> None:
        self._write(self.fd(args), unhex(STRING.findall(args)[0])[:result], None, args)

    def on_pwrite(self, args: str, result: int) -> None:
        self._write(self.fd(args), unhex(STRING.findall(args)[0])[:result], int(args.rsplit(",", 1)[1]), args)

    def on_writev(self, args: str, result: int) -> None:
        self._write(self.fd(args), b"".join(unhex(s) for s in STRING.findall(args))[:result], None, args)

    def on_pwritev(self, args: str, result: int) -> None:
        offset = int(args.split("]", 1)[1].split(",")[2])
        self._write(self.fd(args), b"".join(unhex(s) for s in STRING.findall(args))[:result], offset, args)

    on_pwritev2 = on_pwritev

    def on_ftruncate(self, args: str, result: int) -> None:
        opened = self.fds.get(self.fd(args))
        if isinstance(opened, _Open):
            size = int(args.rsplit(",", 1)[1])
            self.ops.append(Op("trunc", opened.inode, size=size))
            self.sizes[opened.inode] = size

    def on_truncate(self, args: str, result: int) -> None:
        path = self.path(args)
        if path in self.names:
            size = int(args.rsplit(",", 1)[1])
            self.ops.append(Op("trunc", self.names[path], size=size))
            self.sizes[self.names[path]] = size

    def on_fsync(self, args: str, result: int) -> None:
        opened = self.opened(args)
        if isinstance(opened, _Open):
            self.ops.append(Op("sync", opened.inode))
        elif isinstance(opened, str):
            self.ops.append(Op("sync", path=opened))

    on_fdatasync = on_fsync

    def on_sync_file_range(self, args: str, result: int) -> None:
        """Starts write-back only: it makes nothing durable (Linux's man page says so)."""

    def on_fallocate(self, args: str, result: int) -> None:
        """Reserves space only (no change a reader sees, mode 0 aside): not modelled."""

    def on_rename(self, args: str, result: int) -> None:
        old, new = self.path(args, 0), self.path(args, 1)
        if not (self.inside(old) or self.inside(new)):
            return
        self.ops.append(Op("rename", path=old, to=new))
        move(self.names, self.dirs, old, new)

    on_renameat = on_renameat2 = on_rename

    def on_link(self, args: str, result: int) -> None:
        old, new = self.path(args, 0), self.path(args, 1)
        if old in self.names and self.inside(new):
            self.names[new] = self.names[old]
            self.ops.append(Op("link", path=old, to=new))

    on_linkat = on_link

    def on_unlink(self, args: str, result: int) -> None:
        path = self.path(args)
        if self.inside(path):
            kind = "rmdir" if "AT_REMOVEDIR" in args else "unlink"
            self.ops.append(Op(kind, path=path))
            self.names.pop(path, None)
            self.dirs.discard(path)

    on_unlinkat = on_unlink

    def on_rmdir(self, args: str, result: int) -> None:
        self.on_unlink(args + ", AT_REMOVEDIR", result)

    def on_mkdir(self, args: str, result: int) -> None:
        path = self.path(args)
        if self.inside(path):
            self.dirs.add(path)
            self.ops.append(Op("mkdir", path=path))

    on_mkdirat = on_mkdir


def move(names: dict[str, int], dirs: set[str], old: str, new: str) -> None:
    """A rename in a namespace: a file's entry, or a folder and everything under it."""
    if old in names:
        names[new] = names.pop(old)
        return
    if old not in dirs:
        return
    for path in [p for p in names if p.startswith(old + "/")]:
        names[new + path[len(old):]] = names.pop(path)
    for path in [p for p in dirs if p == old or p.startswith(old + "/")]:
        dirs.discard(path)
        dirs.add(new + path[len(old):])


def folders_of(op: Op) -> set[str]:
    """The folders whose fsync makes a directory-entry change durable."""
    return {os.path.dirname(p) for p in (op.path, op.to) if p}


def durable_at(ops: list[Op]) -> list[int | None]:
    """For each op, the index of the sync that made it durable (None: never in the recording; syncs themselves and
    what was printed: their own index)."""
    found: list[int | None] = []
    for i, op in enumerate(ops):
        if op.kind in CONTENT:
            found.append(next((j for j in range(i + 1, len(ops)) if ops[j].kind == "sync"
                               and ops[j].inode == op.inode), None))
        elif op.kind in ENTRIES:
            wanted, at = folders_of(op), None
            for j in range(i + 1, len(ops)):
                if ops[j].kind == "sync" and ops[j].path in wanted:
                    wanted.discard(ops[j].path)
                    if not wanted:
                        at = j
                        break
            found.append(at)
        else:
            found.append(i)
    return found


class Disk:
    """The world's files as a power cut leaves them: the world as it was, then the chosen operations in order."""

    def __init__(self, pristine: Path, root: str) -> None:
        self.pristine, self.root = pristine, root
        self.names: dict[str, int] = {}
        self.dirs: set[str] = {root}
        self.origin: dict[int, Path] = {}
        for folder, _, files in sorted(os.walk(pristine, followlinks=True)):  # a stick is a link
            inside = Path(folder).relative_to(pristine).as_posix()
            base = root if inside == "." else f"{root}/{inside}"
            self.dirs.add(base)
            for name in sorted(files):
                if (Path(folder) / name).is_file() and not (Path(folder) / name).is_symlink():
                    self.names[f"{base}/{name}"] = len(self.origin)
                    self.origin[len(self.origin)] = Path(folder) / name

    def sizes(self) -> dict[int, int]:
        return {inode: path.stat().st_size for inode, path in self.origin.items()}

    def state(self, ops: list[Op], torn: int | None = None) -> dict[str, bytes | Path]:
        """Each file's content (a pristine file left alone: its path, copied with its time) after ``ops``; with
        ``torn``, the last write only that many sectors of it (a write the power cut caught half on the disk)."""
        names, dirs = dict(self.names), set(self.dirs)
        content: dict[int, bytearray] = {}
        for n, op in enumerate(ops):
            if op.kind in CONTENT:
                data = content.setdefault(op.inode, self._read(op.inode))
                if op.kind == "trunc":
                    del data[op.size:]
                    data.extend(bytes(max(0, op.size - len(data))))
                else:
                    piece = op.data[: torn * SECTOR] if torn is not None and n == len(ops) - 1 else op.data
                    data.extend(bytes(max(0, op.offset - len(data))))
                    data[op.offset:op.offset + len(piece)] = piece
            elif op.kind == "create" and os.path.dirname(op.path) in dirs:
                names[op.path] = op.inode
                content.setdefault(op.inode, bytearray())
            elif op.kind == "mkdir" and os.path.dirname(op.path) in dirs:
                dirs.add(op.path)
            elif op.kind == "rename" and os.path.dirname(op.to) in dirs:
                move(names, dirs, op.path, op.to)
            elif op.kind == "link" and op.path in names:
                names[op.to] = names[op.path]
            elif op.kind in ("unlink", "rmdir"):
                names.pop(op.path, None)
                dirs.discard(op.path)
        files = {p: bytes(content[i]) if i in content else self.origin[i] for p, i in names.items()
                 if os.path.dirname(p) in dirs and not p.endswith("-shm") and (i in content or i in self.origin)}
        return {**files, **{d + "/": b"" for d in dirs}}

    def _read(self, inode: int) -> bytearray:
        return bytearray(self.origin[inode].read_bytes()) if inode in self.origin else bytearray()


def digest(state: dict[str, bytes | Path]) -> str:
    """One hash of a state's names and contents (states that differ only in how they came about are one)."""
    h = hashlib.sha256()
    for path in sorted(state):
        data = state[path]
        h.update(path.encode() + b"\0" + (data if isinstance(data, bytes) else data.read_bytes()) + b"\0")
    return h.hexdigest()


def write_out(state: dict[str, bytes | Path], root: str, to: Path) -> None:
    """Materialise ``state`` (paths under ``root``) in folder ``to``: the recording folder's name in a file becomes
    ``to``'s (same length), as if the command had run there."""
    old, new = root.encode(), str(to).encode()
    for path in sorted(p for p in state if p.endswith("/")):
        (to / path[len(root) + 1:]).mkdir(mode=0o700, parents=True, exist_ok=True)
    for path, data in state.items():
        if path.endswith("/"):
            continue
        target = to / path[len(root) + 1:]
        if isinstance(data, Path):
            shutil.copy2(data, target)
        else:
            target.write_bytes(data.replace(old, new) if len(old) == len(new) else data)
            target.chmod(0o600)
