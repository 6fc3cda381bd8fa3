"""The power-cut model on a log of its own: a change is kept only once the sync that covers it has run."""

from pathlib import Path

from tests.crash.trace import Disk, Parser, durable_at


def hexed(text: str) -> str:
    return "".join(f"\\x{b:02x}" for b in text.encode())


def log_lines(root: str) -> list[str]:
    """A key written the careful way (temporary file, fsync, rename), then, in another run, the folder synced."""
    tmp, key, folder = f"{root}/.k.tmp", f"{root}/k", root
    return [
        f'1 openat(AT_FDCWD<{hexed(root)}>, "{hexed(tmp)}", O_WRONLY|O_CREAT|O_EXCL, 0600) = 3<{hexed(tmp)}>',
        f'1 write(3<{hexed(tmp)}>, "{hexed("secret")}", 6) = 6',
        f'1 fsync(3<{hexed(tmp)}>) = 0',
        f'1 close(3<{hexed(tmp)}>) = 0',
        f'1 rename("{hexed(tmp)}", "{hexed(key)}") = 0',
        f'1 write(1<{hexed("/dev/pts/0")}>, "{hexed("kept")}", 4) = 4',
        f'1 openat(AT_FDCWD<{hexed(root)}>, "{hexed(folder)}", O_RDONLY|O_DIRECTORY) = 3<{hexed(folder)}>',
        f'1 fsync(3<{hexed(folder)}>) = 0',
    ]


def parsed(tmp_path: Path):
    (tmp_path / "world").mkdir()
    root = str(tmp_path / "rec")
    disk = Disk(tmp_path / "world", root)
    parser = Parser(root, dict(disk.names), set(disk.dirs), disk.sizes())
    for line in log_lines(root):
        parser.line(line)
    return disk, parser.ops, root


def test_a_renamed_file_is_durable_only_once_its_folder_is_synced(tmp_path):
    disk, ops, root = parsed(tmp_path)
    assert [op.kind for op in ops] == ["create", "write", "sync", "rename", "stdout", "sync"]
    durable = durable_at(ops)
    at_ack = [op for i, op in enumerate(ops[:5]) if durable[i] is not None and durable[i] < 5]
    assert f"{root}/k" not in disk.state(at_ack)  # printed 'kept' before the folder's fsync: a power cut loses it
    assert disk.state([op for i, op in enumerate(ops) if durable[i] is not None])[f"{root}/k"] == b"secret"


def test_a_torn_write_keeps_a_prefix_of_its_sectors(tmp_path):
    disk, ops, root = parsed(tmp_path)
    big = ops[1].__class__("write", ops[1].inode, offset=0, data=b"x" * 1500)
    state = disk.state([ops[0], big], torn=2)
    assert state[f"{root}/.k.tmp"] == b"x" * 1024


def test_a_close_cut_by_another_thread_s_open_of_the_same_number_keeps_the_new_file(tmp_path):
    """strace -f logs a close that another thread's open overtakes: the number is the new file's at once."""
    from tests.crash.trace import Parser

    root = str(tmp_path)
    parser = Parser(root=root, names={}, dirs={root}, sizes={})
    hexed = "".join(f"\\x{b:02x}" for b in f"{root}/b".encode())
    data = "".join(f"\\x{b:02x}" for b in b'{"seq": 1}')
    for line in ("101 close(5</x/a> <unfinished ...>",
                 f'102 openat(AT_FDCWD</x>, "{hexed}", O_WRONLY|O_CREAT|O_EXCL, 0600) = 5</x/b>',
                 "101 <... close resumed>) = 0",
                 f'102 write(5</x/b>, "{data}", 10) = 10'):
        parser.line(line)
    writes = [op for op in parser.ops if op.kind == "write"]
    assert len(writes) == 1 and writes[0].data == b'{"seq": 1}'


def test_a_call_another_thread_interrupts_is_kept_whatever_the_width_of_its_pid(tmp_path):
    """strace pads a pid to five columns ("3233  write(..."): a write split by another thread's call into
    '<unfinished ...>' and '<... write resumed>' is still the write, and the file holds its bytes."""
    root = str(tmp_path)
    target = "".join(f"\\x{b:02x}" for b in f"{root}/a".encode())
    data = "".join(f"\\x{b:02x}" for b in b'{"seq": 2}')
    for pid in ("3233 ", "12345"):
        parser = Parser(root=root, names={}, dirs={root}, sizes={})
        for line in (f'{pid} openat(AT_FDCWD</x>, "{target}", O_WRONLY|O_CREAT|O_EXCL, 0600) = 7</x/a>',
                     f'{pid} write(7<{target}>, "{data}", 10 <unfinished ...>',
                     '3234  mkdir("' + "".join(f"\\x{b:02x}" for b in b"/elsewhere") + '", 0700 <unfinished ...>',
                     f"{pid} <... write resumed>)              = 10",
                     f"{pid} fsync(7<{target}> <unfinished ...>",
                     "3234  <... mkdir resumed>)              = 0",
                     f"{pid} <... fsync resumed>)              = 0"):
            parser.line(line)
        assert [(op.kind, op.data) for op in parser.ops] == [("create", b""), ("write", b'{"seq": 2}'), ("sync", b"")]
