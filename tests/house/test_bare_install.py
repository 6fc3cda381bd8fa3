"""The package with no extras, as a Raspberry Pi gets it: installed once into a fresh venv, it plays and runs.

The device needs no desktop library: the simulator's pygame is the ``sim``
extra. This installs a copy of the checkout with pip and nothing else into a
new virtual environment (from the package index, as the README's own command
does) and runs ``banker script`` and ``banker run --backend hw-sim`` there,
so a module of the device that imports pygame, a test-only package or a file
missing from the package fails here.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = {".git", ".venv", "build", "dist", "__pycache__", ".pytest_cache", ".hypothesis", "out"}


def _ignore(folder: str, names: list[str]) -> set[str]:
    return {n for n in names if n in SKIPPED or n.endswith((".egg-info", ".db", ".db-wal", ".db-shm", ".pyc"))}


@pytest.fixture(scope="module")
def bare(tmp_path_factory) -> dict:
    """A fresh venv with the bare package installed: its bin folder, and an environment that keeps off $HOME."""
    where = tmp_path_factory.mktemp("bare")
    source, venv = where / "source", where / "venv"
    shutil.copytree(ROOT, source, ignore=_ignore)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
                              "--disable-pip-version-check", str(source)], capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, f"pip could not install the bare package:\n{install.stdout}\n{install.stderr}"
    home = where / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BANKER_", "PYTHON"))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), XDG_CONFIG_HOME=str(home / "config"),
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return {"bin": venv / "bin", "python": python, "env": env, "cwd": where}


def banker(bare: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(bare["bin"] / "banker"), *args], cwd=bare["cwd"], env=bare["env"], capture_output=True,
                          text=True, timeout=120)


def test_the_bare_package_brings_no_desktop_or_test_library(bare):
    for module in ("pygame", "pytest", "hypothesis", "mfrc522", "selenium"):
        found = subprocess.run([str(bare["python"]), "-c", f"import importlib.util as u; print(u.find_spec({module!r}))"],
                               capture_output=True, text=True, env=bare["env"], timeout=60)
        assert found.stdout.strip() == "None", f"{module} came with the bare package"


def test_the_bare_package_plays_the_first_example(bare):
    result = banker(bare, "script", str(ROOT / "examples" / "first-game.kps"))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


def test_the_bare_package_runs_the_unit_on_simulated_chips(bare):
    result = banker(bare, "run", "--backend", "hw-sim", "--seconds", "1", "--db", str(bare["cwd"] / "ledger.db"))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


def test_the_bare_package_says_how_to_get_the_simulator(bare):
    result = banker(bare, "sim", "--screenshot", str(bare["cwd"] / "never.png"))
    assert result.returncode == 3 and "Traceback" not in result.stderr
    assert "pip install" in result.stderr and "[sim]" in result.stderr
