"""aiohttp's server (``aiohttp.web``) imported without its client: the table page starts without building TLS contexts.

``import aiohttp`` runs the package's ``__init__``, which imports the whole
HTTP client first: ``aiohttp.connector`` builds two TLS contexts (the
system's certificates loaded twice) and the client brings its cookie jar,
resolver, tracing and forms. The page never uses any of it, and it is about
a third of ``banker web``'s start (docs/performance.md, issue 19).

:func:`server_modules` imports only the server's modules: the package is
put in place unexecuted (only its ``__version__``, which ``aiohttp.http``
reads, is set), then ``aiohttp.web`` is imported into it. The package's
own ``__init__`` runs later, in full and once, the first time anything
asks the package for a name it doesn't have yet (``aiohttp.ClientSession``,
``from aiohttp import client``, ``import aiohttp.test_utils``): the modules
loaded already are shared, so it is then the package a plain ``import
aiohttp`` gives. If aiohttp is imported already, or its layout is not what
this expects, it is imported the ordinary way.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
import threading
from types import ModuleType

_VERSION = re.compile(rb"""^__version__\s*=\s*["']([^"']+)["']""", re.MULTILINE)
#: Held while the package's ``__init__`` runs (another thread asking waits; the same thread's imports go through).
_completing = threading.RLock()


def server_modules() -> tuple[ModuleType, ModuleType]:
    """``(aiohttp.web, aiohttp.web_protocol)``, without the client if aiohttp isn't imported yet."""
    if "aiohttp" not in sys.modules:
        try:
            _import_without_client()
        except Exception:  # an aiohttp laid out otherwise: the ordinary import, whole
            for name in [name for name in sys.modules if name == "aiohttp" or name.startswith("aiohttp.")]:
                del sys.modules[name]
    return importlib.import_module("aiohttp.web"), importlib.import_module("aiohttp.web_protocol")


def _import_without_client() -> None:
    spec = importlib.util.find_spec("aiohttp")
    if spec is None or spec.loader is None or spec.origin is None or not spec.submodule_search_locations:
        raise ImportError("aiohttp is not an ordinary package")
    with open(spec.origin, "rb") as source:
        found = _VERSION.search(source.read())
    if found is None:
        raise ImportError("aiohttp's version is not where it was")
    package = importlib.util.module_from_spec(spec)
    package.__version__ = found.group(1).decode("ascii")
    sys.modules["aiohttp"] = package
    importlib.import_module("aiohttp.web")
    importlib.import_module("aiohttp.web_protocol")
    state = {"running": False}

    def complete(name: str):
        """The package's ``__init__``, run once, then ``name`` from it (module ``__getattr__``, PEP 562)."""
        with _completing:
            if state["running"]:  # its own imports asking for a submodule: the import system loads it
                raise AttributeError(name)
            if package.__dict__.get("__getattr__") is complete:
                state["running"] = True
                try:
                    spec.loader.exec_module(package)  # replaces this __getattr__ with aiohttp's own
                finally:
                    state["running"] = False
                    if package.__dict__.get("__getattr__") is complete:
                        del package.__getattr__  # it failed: the error says why, and nothing is hidden again
        return getattr(package, name)

    package.__getattr__ = complete
