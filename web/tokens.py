"""The table page's access token: kept private beside the ledger, compared in constant time, renewed on demand.

The token is 12 random bytes written as 16 URL-safe characters (96 bits:
far beyond guessing over a network, and short enough that the page's URL
fits a version 3 QR code, drawn at 2 pixels a module on the OLED). It lives
in ``<ledger>.web-token`` (created 0600, replaced atomically), so a bookmark
on the TV survives a restart, and the unit and a ``banker web`` beside it
hand out the same one. A ledger in memory keeps its token in memory.

Another process renewing the token is noticed: :meth:`TokenStore.current`
re-reads the file when it changes.

>>> tokens = TokenStore(None)
>>> tokens.matches(tokens.current()), tokens.matches("guess"), tokens.matches(None)
(True, False, False)
"""

from __future__ import annotations

import hmac
import logging
import os
import secrets
import threading
from pathlib import Path

from store.keys import write_private

#: Random bytes in a token (16 characters once written).
TOKEN_BYTES = 12
SUFFIX = ".web-token"

log = logging.getLogger("banker.web")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_path(ledger_path: str | os.PathLike | None) -> Path | None:
    """Where the token of the ledger at ``ledger_path`` is kept (None for a ledger in memory)."""
    if ledger_path is None or str(ledger_path) == ":memory:":
        return None
    return Path(str(Path(ledger_path).expanduser()) + SUFFIX)


class TokenStore:
    """The current token of one ledger's page; ``path`` None keeps it in memory only.

    Thread-safe: the unit's thread renews it, the server's thread checks it.
    """

    def __init__(self, path: str | os.PathLike | None) -> None:
        self.path = Path(path) if path is not None else None
        self._lock = threading.Lock()
        self._token: str | None = None
        self._stamp: tuple | None = None
        self.generation = 0

    def current(self) -> str:
        """The token now (made and stored the first time it is asked for)."""
        with self._lock:
            if self.path is None:
                if self._token is None:
                    self._token = new_token()
                return self._token
            stamp = self._file_stamp()
            if stamp is None:
                self._write(new_token())
            elif stamp != self._stamp:
                self._read()
            assert self._token is not None
            return self._token

    def renew(self) -> str:
        """A new token: the old one stops working (the server closes its sessions)."""
        with self._lock:
            if self.path is None:
                self._token = new_token()
                self.generation += 1
            else:
                self._write(new_token())
            return self._token  # type: ignore[return-value]

    def matches(self, given: str | None) -> bool:
        """Whether ``given`` is the token, compared in constant time."""
        if not given:
            return False
        return hmac.compare_digest(given.encode("utf-8", "replace"), self.current().encode())

    # -- the file ------------------------------------------------------------------------

    def _file_stamp(self) -> tuple | None:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def _read(self) -> None:
        """Take the token in the file; a damaged one (not ASCII, too short, stray characters) is replaced, logged."""
        try:  # never through a link, never waiting on a FIFO
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
            try:
                data = os.read(fd, 256)
            finally:
                os.close(fd)
        except OSError:  # a link, a folder, gone meanwhile: a fresh token
            data = b""
        text = data.decode("ascii", "replace").strip()
        if len(text) < 16 or len(text) > 64 or not all(c.isascii() and (c.isalnum() or c in "-_") for c in text):
            log.warning("the table page's token file %s was damaged: a fresh token replaces it "
                        "(pages open with the old address must scan the new code)", self.path)
            self._write(new_token())
            return
        if text != self._token:
            if self._token is not None:
                self.generation += 1
            self._token = text
        self._stamp = self._file_stamp()

    def _write(self, token: str) -> None:
        """Put ``token`` in place as the store puts a key: a private temporary file created exclusively, never
        through a link, synced, then renamed (:func:`store.keys.write_private`)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_private(self.path, (token + "\n").encode("ascii"))
        if self._token is not None:
            self.generation += 1
        self._token = token
        self._stamp = self._file_stamp()
