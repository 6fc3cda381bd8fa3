"""A newcomer's fresh machine: the README's test command is .ci/run's, and every Debian package its tool script could
install resolves here (apt-get -s), so a package that conflicts with the image (Debian's npm beside a Node.js that
ships its own) turns CI red instead of stopping the first step on a new machine."""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "deploy" / "test-tools.sh"


def _fenced_commands(text: str) -> list[str]:
    lines, inside = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            inside = not inside
        elif inside:
            lines.append(line)
    return lines


def test_ci_runs_exactly_the_readmes_test_command():
    readme = _fenced_commands((ROOT / "README.md").read_text(encoding="utf-8"))
    test_command = [line for line in readme if "pytest" in line]
    assert len(test_command) == 1, test_command
    ci = [line for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
          if line and not line.startswith(("#", "set ", "cd "))]
    assert ci == test_command


def test_every_package_the_tool_script_could_install_resolves_on_this_machine():
    run = subprocess.run(["bash", str(TOOLS), "--check"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]


def _npm_outside_debian() -> bool:
    """Whether this machine's npm came from outside Debian (NodeSource's nodejs ships its own)."""
    return shutil.which("npm") is not None and subprocess.run(["dpkg-query", "-W", "npm"],
                                                             capture_output=True).returncode != 0


def test_npm_is_never_asked_of_apt_where_the_machine_has_one():
    """npm is listed only where the machine has none; and where its npm is not Debian's, apt's would conflict, so
    naming it (as the old command did) would stop the whole install: the check above then is not vacuous."""
    listed = subprocess.run(["bash", str(TOOLS), "--list"], capture_output=True, text=True, timeout=60, check=True)
    packages = listed.stdout.split()
    assert {"chromium", "chromium-driver", "espeak-ng", "alsa-utils", "strace"} <= set(packages)
    assert ("npm" in packages) == (shutil.which("npm") is None)
    if _npm_outside_debian():
        run = subprocess.run(["apt-get", "-s", "install", "-q", "--no-install-recommends", *packages, "npm"],
                             capture_output=True, text=True, timeout=600)
        assert run.returncode != 0 and "npm" in run.stdout + run.stderr
