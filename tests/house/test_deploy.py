"""The Pi's install as a builder meets it: the service's sandbox verifies and scores as the docs say, the install
needs only packages every Pi image has, doctor names the real cause when the Pi's devices are missing, and the
"banker" on the PATH reads and writes the caller's own files, as the caller, with two real users."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest

from drivers.errors import DeviceMissing, DriverLibraryMissing
from runtime.device import gpio_unavailable

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNIT = DEPLOY / "monopoly-banker.service"
INSTALL_DOC = (ROOT / "docs" / "install-pi.md").read_text(encoding="utf-8")
needs_systemd_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                           reason="systemd-analyze is not installed here (Debian's systemd package)")


def settings() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


# -- the service's sandbox -----------------------------------------------------------------------


@needs_systemd_analyze
def test_the_service_unit_verifies(tmp_path):
    unit = tmp_path / UNIT.name  # verify wants ExecStart's program to exist: an installed one is not here
    unit.write_text(UNIT.read_text(encoding="utf-8").replace("ExecStart=/opt/monopoly-banker/venv/bin/banker",
                                                             f"ExecStart={shutil.which('true')}"))
    run = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stderr.strip() == "", run.stderr


@needs_systemd_analyze
def test_the_services_exposure_score_is_low_and_the_docs_give_it():
    run = subprocess.run(["systemd-analyze", "security", "--offline=yes", str(UNIT)], capture_output=True,
                         text=True, timeout=60)
    if "offline" in run.stderr and run.returncode != 0:
        pytest.skip(f"this systemd-analyze can't score a unit file offline: {run.stderr.strip()}")
    score = re.search(r"Overall exposure level for \S+: (\d+\.\d)", run.stdout)
    assert score, run.stdout[-400:]
    assert float(score.group(1)) <= 2.0
    assert f"exposure score **{score.group(1)}**" in INSTALL_DOC, "docs/install-pi.md gives another score"


def test_the_sandbox_keeps_the_pis_devices_and_groups_and_the_network():
    unit = settings()
    allowed = " ".join(unit["DeviceAllow"])
    for device in ("char-gpiochip rw", "char-spi rw", "char-i2c rw", "char-ttyS rw", "char-ttyAMA rw",
                   "char-ttyGS rw"):
        assert device in allowed
    # the groups gpio, spi, i2c and dialout must still open the devices: no user namespace, no private /dev
    assert "PrivateUsers" not in unit and "PrivateDevices" not in unit and "SupplementaryGroups" not in unit
    assert set(unit["RestrictAddressFamilies"][0].split()) == {"AF_UNIX", "AF_INET", "AF_INET6"}
    assert unit["ProtectSystem"] == ["strict"] and unit["UMask"] == ["0077"]
    assert unit["ReadWritePaths"] == ["/var/lib/monopoly-banker /var/lib/monopoly-banker-keys", "-/media/banker-stick"]
    assert "ProcSubset" not in unit  # gpiozero reads the Pi's revision from /proc/cpuinfo and /proc/device-tree
    assert "network-online.target" in unit["Wants"][0] and "network-online.target" in unit["After"][0]


def test_the_service_says_when_it_is_up_and_a_hung_unit_is_restarted():
    unit = settings()
    assert unit["Type"] == ["notify"] and unit["NotifyAccess"] == ["main"]  # READY=1 from banker run itself
    assert 10 <= int(unit["WatchdogSec"][0]) <= 60 and unit["Restart"] == ["on-failure"]  # a watchdog kill restarts
    assert unit["ExecStart"][0].endswith("/bin/banker run")  # the banker is the main process: it notifies
    assert f"WatchdogSec={unit['WatchdogSec'][0]}" in INSTALL_DOC


def test_the_service_may_write_its_keys_folder_and_the_default_one_too(monkeypatch):
    """The service names its keys folder (BANKER_KEY_DIR, as the banker on the PATH does); without it the keys
    would go to the XDG state folder of the user banker, whose home is the ledger's folder: writable too."""
    from platformdirs import user_state_path

    unit = settings()
    writable = [Path(p.lstrip("-")) for line in unit["ReadWritePaths"] for p in line.split()]
    named = Path(next(e.split("=", 1)[1] for e in unit["Environment"] if e.startswith("BANKER_KEY_DIR=")))
    assert named in writable and named.name in unit["StateDirectory"][0].split()
    assert f"BANKER_KEY_DIR:={named}" in (DEPLOY / "banker").read_text(encoding="utf-8")
    install = (DEPLOY / "install.sh").read_text(encoding="utf-8")
    assert re.search(r"useradd .*--home-dir \"\$STATE_DIR\"", install), "banker's home is no longer the ledger's folder"
    assert f"STATE_DIR={unit['WorkingDirectory'][0]}\n" in install
    monkeypatch.setenv("HOME", unit["WorkingDirectory"][0])
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    default = user_state_path("monopoly-banker") / "keys"
    assert any(default.is_relative_to(folder) for folder in writable), default


# -- install.sh on every image --------------------------------------------------------------------


def test_install_needs_no_raspberry_pi_os_only_package_and_names_its_build_tools():
    text = (DEPLOY / "install.sh").read_text(encoding="utf-8")
    packages = re.search(r'^packages="([^"]+)"', text, re.M).group(1).split()
    assert "liblgpio-dev" not in packages and "swig" not in packages  # lgpio's wheels carry their library
    assert {"python3-venv", "python3-dev", "gcc", "libc6-dev"} <= set(packages)  # spidev is compiled
    assert re.search(r"armhf\|armel\)\s*\n(\s*#.*\n)*\s*packages=\"\$packages libjpeg-dev zlib1g-dev\"", text)
    assert "--prefer-binary" in text  # cbor2 6 has no 32-bit ARM wheel and would need Rust
    # in a chroot there is no running systemd: daemon-reload only where it runs
    assert re.search(r"if \[ -d /run/systemd/system \]; then\n\s*systemctl daemon-reload", text)
    assert "systemctl enable --now" not in text and "sudo systemctl start monopoly-banker" in text


def test_the_license_is_an_spdx_expression_with_a_setuptools_that_reads_it():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    assert "setuptools>=77" in project["build-system"]["requires"]


# -- doctor on a Pi without its devices ------------------------------------------------------------


def rpi_missing() -> ModuleNotFoundError:
    return ModuleNotFoundError("No module named 'RPi'", name="RPi")


def test_doctor_says_it_is_not_a_pi_rather_than_to_install_lgpio():
    from gpiozero.exc import PinUnknownPi

    error = gpio_unavailable({"LGPIOFactory": PinUnknownPi("unable to locate Pi revision in /proc/device-tree or "
                                                           "/proc/cpuinfo"), "RPiGPIOFactory": rpi_missing()})
    assert isinstance(error, DeviceMissing)
    assert str(error).startswith("not a Raspberry Pi") and "hw-sim" in str(error)
    assert "install" not in str(error) and "RPi" not in str(error)


def test_doctor_names_the_gpio_group_when_the_chip_cant_be_opened():
    error = gpio_unavailable({"LGPIOFactory": OSError("'can not open gpiochip'"), "RPiGPIOFactory": rpi_missing()})
    assert "gpiochip" in str(error) and "gpio group" in str(error) and "RPi" not in str(error)


def test_doctor_asks_for_lgpio_only_when_it_is_missing():
    error = gpio_unavailable({"LGPIOFactory": ModuleNotFoundError("No module named 'lgpio'", name="lgpio"),
                              "RPiGPIOFactory": rpi_missing()})
    assert isinstance(error, DriverLibraryMissing) and "lgpio library is not installed" in str(error)
    assert "RPi" not in str(error)


# -- the banker on the PATH and the caller's files, with two users --------------------------------


def site_packages() -> str:
    import click

    return str(Path(click.__file__).resolve().parent.parent)


def runnable_python() -> str:
    """A Python of this version that every user may run: this one, else the system's."""
    mine = Path(sys.executable).resolve()
    if all(os.stat(p).st_mode & 0o001 for p in [mine, *mine.parents]):
        return str(mine)
    return shutil.which(f"python{sys.version_info[0]}.{sys.version_info[1]}", path="/usr/bin:/usr/local/bin") or "python3"


def skip_or_fail(why: str) -> None:
    """What this machine lacks for a deploy test: a failure in CI (CI=true, where .ci/run runs as root with sudo,
    useradd and runuser installed), a skip saying why on a developer's machine."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(why)
    pytest.skip(why)


@pytest.fixture
def two_users():
    """A login user (``caller``, with a private home holding a script) and the unit's user (``unit``).

    Made with useradd and removed after; the CI runs as root. Skipped (saying why) when not root, except in CI.
    """
    if os.geteuid() != 0:
        skip_or_fail("making two users needs root (the CI runs as root)")
    if not (shutil.which("useradd") and shutil.which("runuser")):
        skip_or_fail("useradd and runuser (Debian's passwd and util-linux) are not installed")
    tag = f"{os.getpid() % 100000}"
    caller, unit = f"mbcaller{tag}", f"mbunit{tag}"
    base = Path(tempfile.mkdtemp(prefix="banker-users-", dir="/var/tmp"))
    base.chmod(0o755)
    made = []
    try:
        for name in (caller, unit):
            subprocess.run(["useradd", "--no-create-home", "--home-dir", str(base / name), "--shell", "/bin/sh",
                            name], check=True)
            made.append(name)
        home = base / caller
        home.mkdir(mode=0o700)
        shutil.chown(home, caller, caller)
        unit_dir = base / "unit"  # the unit's ledger and keys, the unit user's own
        unit_dir.mkdir(mode=0o700)
        shutil.copy(ROOT / "docs" / "banker.example.toml", unit_dir / "banker.toml")
        for path in (unit_dir, unit_dir / "banker.toml"):
            shutil.chown(path, unit, unit)  # the unit user's own, as install.sh leaves them, whichever test runs first
        # the unit's venv: this one's packages, run by a Python the unit's user may run (this one may lie in
        # root's private home, as pyenv's does)
        venv_bin = base / "opt" / "venv" / "bin"
        venv_bin.mkdir(parents=True)
        (venv_bin / "banker").write_text(f"#!/bin/sh\nPYTHONPATH={site_packages()}:{ROOT} exec {runnable_python()} -c "
                                         "'import sys; from banker_cli.main import cli; sys.exit(cli(prog_name=\"banker\"))'"
                                         ' "$@"\n')
        (venv_bin / "banker").chmod(0o755)
        probe = subprocess.run(["runuser", "-u", unit, "--", str(venv_bin / "banker"), "--help"],
                               capture_output=True, timeout=120)
        if probe.returncode != 0:
            pytest.skip(f"the user {unit} can't run this checkout's banker (a private folder above it?)")
        yield {"caller": caller, "unit": unit, "home": home, "unit_dir": unit_dir, "banker_home": base / "opt"}
    finally:
        for name in made:
            subprocess.run(["userdel", name], check=False)
        shutil.rmtree(base, ignore_errors=True)


def wrapper(users, *args, as_caller: bool, extra_env=None):
    """``banker ARGS`` through deploy/banker, typed in the caller's home by the caller (through sudo) or by root."""
    env = {"PATH": os.environ["PATH"], "BANKER_HOME": str(users["banker_home"]), "BANKER_USER": users["unit"],
           "BANKER_CONFIG": str(users["unit_dir"] / "banker.toml"), "BANKER_KEY_DIR": str(users["unit_dir"] / "keys"),
           "LG_WD": str(users["unit_dir"]), **(extra_env or {})}
    command = [str(DEPLOY / "banker"), *args]
    if as_caller:
        command = ["runuser", "-u", users["caller"], "--", "env", *(f"{k}={v}" for k, v in env.items()), *command]
    return subprocess.run(command, cwd=users["home"], env=env, capture_output=True, text=True, timeout=180)


def caller_file(users, name: str, text: str) -> Path:
    path = users["home"] / name
    path.write_text(text)
    path.chmod(0o600)
    shutil.chown(path, users["caller"], users["caller"])
    return path


GAME = "enrol Alice A1\nenrol Bob B2\ninsert left Alice\ninsert right Bob\npress 2 M\nremove left\nremove right\n"


def a_unit_ledger(users) -> Path:
    db = users["unit_dir"] / "ledger.db"
    script = users["unit_dir"] / "setup.kps"
    script.write_text(GAME)
    subprocess.run([str(users["banker_home"] / "venv" / "bin" / "banker"), "script", str(script), "--db", str(db)],
                   check=True, capture_output=True, env={**os.environ, "BANKER_KEY_DIR": str(users["unit_dir"] / "keys")})
    for path in [users["unit_dir"], *users["unit_dir"].rglob("*")]:
        shutil.chown(path, users["unit"], users["unit"])
    return db


def test_sudo_banker_script_reads_the_callers_file_the_unit_user_cannot(two_users):
    caller_file(two_users, "mygame.kps", GAME + "expect balance Alice 17M\n")
    plain = subprocess.run(["runuser", "-u", two_users["unit"], "--", "cat", str(two_users["home"] / "mygame.kps")],
                           capture_output=True, text=True)
    assert plain.returncode != 0 and "Permission denied" in plain.stderr  # what failed before
    run = wrapper(two_users, "script", "mygame.kps", as_caller=False)  # "sudo banker script mygame.kps"
    assert run.returncode == 0, run.stderr
    assert "Permission denied" not in run.stderr


def test_sudo_banker_ledger_export_writes_into_the_callers_folder(two_users):
    db = a_unit_ledger(two_users)
    run = wrapper(two_users, "ledger", "export", "-o", "game.csv", as_caller=False, extra_env={"BANKER_DB": str(db)})
    assert run.returncode == 0, run.stderr
    exported = two_users["home"] / "game.csv"
    assert "Alice" in exported.read_text() and exported.stat().st_mode & 0o777 == 0o600
    assert not list(two_users["home"].glob(".banker-export.*"))  # no half-written file left


@pytest.fixture
def caller_may_sudo(two_users):
    """A sudoers rule letting the caller run commands as the unit's user (as a Pi's login user may); removed after."""
    if shutil.which("sudo") is None:
        skip_or_fail("sudo is not installed (.ci/run installs it)")
    rule = Path(f"/etc/sudoers.d/zz-banker-test-{os.getpid()}")
    rule.write_text(f"{two_users['caller']} ALL=({two_users['unit']}) NOPASSWD:SETENV: ALL\n")
    rule.chmod(0o440)
    try:
        yield two_users
    finally:
        rule.unlink()


def test_the_login_user_scripts_and_exports_their_own_files(caller_may_sudo):
    users = caller_may_sudo
    caller_file(users, "mygame.kps", GAME + "expect balance Alice 17M\n")
    played = wrapper(users, "script", "mygame.kps", as_caller=True)
    assert played.returncode == 0, played.stderr
    db = a_unit_ledger(users)
    exported = wrapper(users, "ledger", "export", "--output=game.csv", as_caller=True, extra_env={"BANKER_DB": str(db)})
    assert exported.returncode == 0, exported.stderr
    csv = users["home"] / "game.csv"
    assert "Alice" in csv.read_text()
    assert csv.stat().st_uid == int(subprocess.check_output(["id", "-u", users["caller"]]))  # the caller's file
    # a file the caller can't read is not read by the unit's user for them either
    secret = users["home"] / "secret.kps"
    secret.write_text(GAME)
    secret.chmod(0o600)  # root's file in the caller's home
    refused = wrapper(users, "script", "secret.kps", as_caller=True)
    assert refused.returncode != 0 and "secret.kps" in refused.stderr



def test_the_wrapper_hands_over_the_script_not_a_config_named_before_it():
    """``banker script --config cfg.toml game.kps``: the script is the file opened as the caller, the config's
    path is passed on as given (a fake unit program, run as the user nobody, prints what it got)."""
    if os.getuid() != 0 or not shutil.which("runuser"):
        skip_or_fail("the wrapper switches users only as root (runuser) or through sudo")
    base = Path(tempfile.mkdtemp(prefix="banker-wrapper-", dir="/var/tmp"))
    try:
        base.chmod(0o755)
        fake = base / "opt" / "venv" / "bin" / "banker"
        fake.parent.mkdir(parents=True)
        fake.write_text('#!/bin/sh\necho "ARGS: $*"\necho "STDIN: $(head -c 40)"\n')
        fake.chmod(0o755)
        (base / "cfg.toml").write_text("config text\n")
        (base / "game.kps").write_text("script text\n")
        env = {"PATH": os.environ["PATH"], "BANKER_HOME": str(base / "opt"), "BANKER_USER": "nobody",
               "LG_WD": str(base)}
        done = subprocess.run([str(DEPLOY / "banker"), "script", "--config", "cfg.toml", "game.kps"], cwd=base,
                              env=env, capture_output=True, text=True, timeout=60)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    assert done.returncode == 0, done.stderr
    assert "ARGS: script --config cfg.toml -" in done.stdout
    assert "STDIN: script text" in done.stdout
