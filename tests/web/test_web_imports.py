"""How ``banker web`` starts: the store's names as asked for, no collector until it listens.

The import checks run in a fresh interpreter, as ``banker web`` starts.
The speed itself is measured by ``benchmarks/bench_web.py --first-page``.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_page_and_its_refusal_are_served_in_a_fresh_process(tmp_path):
    """The page (and a 401 without the token) from a server started as ``banker web`` starts it."""
    out = run(f"""
        import sys, urllib.request, urllib.error
        from runtime.ledger import SqliteLedger
        from web import serve_in_background
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({{}}))
        with SqliteLedger({str(tmp_path / "l.db")!r}, backups=False) as ledger, \\
                serve_in_background(ledger, host="127.0.0.1", port=0) as page:
            with opener.open(page.url) as answer:
                print(answer.status, "</html>" in answer.read().decode())
            try:
                opener.open(page.url.split("?")[0])
            except urllib.error.HTTPError as refused:
                print(refused.code, refused.headers["Server"])
    """)
    assert out.split() == ["200", "True", "401", "banker"]


@pytest.mark.parametrize("name", ["SqliteStore", "Keyring", "KEEP", "list_backups", "GameRow",
                                  "take_writer_lock", "APPLICATION_ID", "UntrustedJournal"])
def test_each_name_of_the_store_comes_from_the_package_loading_only_its_module(name):
    out = run(f"""
        import sys
        import store
        before = sorted(m for m in sys.modules if m.startswith("store."))
        from store import {name}
        import importlib
        module = importlib.import_module("store." + store._EXPORTS[{name!r}])
        assert {name} is getattr(module, {name!r}) is store.{name}
        print(before == [], {name!r} in dir(store))
    """)
    assert out.split() == ["True", "True"]


def test_every_name_the_store_exports_is_there_and_nothing_else():
    import store

    for name in store.__all__:
        assert getattr(store, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        store.Nothing  # noqa: B018
    with pytest.raises(ImportError):
        exec("from store import Nothing")


@pytest.mark.parametrize("collecting", [True, False])
def test_banker_web_leaves_the_garbage_collector_as_it_found_it_even_when_it_refuses(tmp_path, collecting):
    """The start runs without the cyclic collector (nothing it makes is garbage); a refusal doesn't leave it off."""
    import gc

    from click.testing import CliRunner

    from banker_cli.web_cli import web_command

    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        result = CliRunner().invoke(web_command, ["--db", str(tmp_path / "none.db")])
        assert result.exit_code == 3 and "there is no ledger" in result.output
        assert gc.isenabled() is collecting
    finally:
        (gc.enable if was else gc.disable)()


def test_the_first_page_benchmark_runs(tmp_path):
    """``bench_web.py --first-page`` (here on a small ledger, against this same tree) still runs; nothing timed."""
    import os

    env = dict(os.environ, TMPDIR=str(tmp_path))
    for name in ("BANKER_DB", "BANKER_CONFIG", "BANKER_PIN"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_web.py"), "--first-page", "--sizes", "60",
                           "--repeat", "1", "--against", str(ROOT)], capture_output=True, text=True, env=env,
                          timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "60 transactions: CPU of banker web to first page" in done.stdout
    assert "60 transactions, --against: time to first page" in done.stdout
