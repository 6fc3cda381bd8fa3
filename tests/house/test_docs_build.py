"""The docs a hobbyist builds from: every link and picture is there, the troubleshooting table names doctor's
lines, the bill of materials counts the cards, and the Pi's install assumes no login user and puts banker
on the PATH with the unit's config."""

import os
import re
import subprocess
from pathlib import Path

import pytest

from runtime.config import Config
from runtime.device import wanted

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
#: The docs of the build and of playing (others own cli.md, config.md, web.md, fidelity.md).
OURS = [ROOT / "README.md"] + [DOCS / f"{n}.md" for n in ("guide", "keypad", "wiring", "install-pi", "bom",
                                                           "troubleshooting")]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of ``path``."""
    found = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"\s", "-", re.sub(r"[^\w\- ]", "", title)))
    return found


@pytest.mark.parametrize("doc", OURS, ids=lambda p: p.name)
def test_every_link_and_picture_of_a_doc_is_there(doc):
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        file, _, anchor = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        assert path.exists(), f"{doc.name} links to {target}, which is missing"
        if anchor and path.suffix == ".md":
            assert anchor in anchors(path), f"{doc.name} links to {target}: {path.name} has no such heading"


def test_every_picture_in_docs_img_is_shown_somewhere():
    shown = "".join(p.read_text(encoding="utf-8") for p in OURS + list(DOCS.glob("*.md")))
    for image in (DOCS / "img").iterdir():
        if not image.name.startswith("web-"):
            assert f"img/{image.name}" in shown, f"docs/img/{image.name} is in no doc"


def test_each_troubleshooting_row_names_the_doctor_line_that_shows_it():
    text = (DOCS / "troubleshooting.md").read_text(encoding="utf-8")
    table = text[:text.index("## Not the hardware")]
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith(("| symptom", "|---"))]
    lines = set(wanted(Config(serial_url="/dev/ttyGS0"))) | {"serial test port", "voice"}
    for needed in ("reader not found", "one card seen by both readers", "OLED blank", "wrong address",
                   "keys swapped", "no sound"):
        assert any(needed in row for row in rows), f"no row for {needed!r}"
    for row in rows:
        doctor_cell = row.split(" | ")[1]
        assert any(f"`{name}`" in doctor_cell for name in lines), f"{row[:40]}... names no doctor line"


def test_the_bill_of_materials_counts_what_a_game_needs():
    text = (DOCS / "bom.md").read_text(encoding="utf-8")
    for row in ("| 2 | 13.56 MHz RFID reader board", "| 8 | player cards", "| 28 | deed tags", "| 1 | NPN transistor",
                "| 1 | 1 kΩ resistor", "| 1 | passive buzzer", "| 1 | 4 × 4 matrix keypad", "| 1 | 128 × 64 I2C OLED",
                "| 1 | power supply", "level shift"):
        assert row in text, f"bom.md lacks {row!r}"


# -- the Pi's install ---------------------------------------------------------------------------


UNIT = (ROOT / "deploy" / "monopoly-banker.service").read_text(encoding="utf-8")


def test_the_service_assumes_no_login_user_and_passes_the_config():
    settings = dict(line.split("=", 1) for line in UNIT.splitlines() if "=" in line and not line.startswith("#"))
    assert settings["User"] == "banker" and settings["Group"] == "banker"
    assert "SupplementaryGroups" not in settings  # the groups that exist come from the user (install.sh)
    assert "Environment=BANKER_CONFIG=/etc/monopoly-banker/banker.toml" in UNIT
    assert settings["ExecStart"].startswith("/opt/monopoly-banker/venv/bin/banker run")
    assert settings["StateDirectory"] == "monopoly-banker monopoly-banker-keys"
    # the key apart from the ledger's folder (docs/security.md), and the banker on the PATH uses the same
    assert "Environment=BANKER_KEY_DIR=/var/lib/monopoly-banker-keys" in UNIT
    assert "BANKER_KEY_DIR:=/var/lib/monopoly-banker-keys" in (ROOT / "deploy" / "banker").read_text(encoding="utf-8")
    assert not re.search(r"=(pi|/home/pi)\b", UNIT)  # no login user, group or home named


def test_install_sh_is_valid_and_makes_the_banker_user_and_command():
    script = ROOT / "deploy" / "install.sh"
    assert os.access(script, os.X_OK)
    subprocess.run(["bash", "-n", str(script)], check=True)
    text = script.read_text(encoding="utf-8")
    assert "useradd --system" in text and "/usr/local/bin/banker" in text and "[pi]" in text
    assert "User=pi" not in text and "usermod -a -G \"$group\" banker" in text


def test_the_banker_on_the_path_runs_the_units_banker_with_its_config(tmp_path):
    fake = tmp_path / "venv" / "bin"
    fake.mkdir(parents=True)
    (fake / "banker").write_text('#!/bin/sh\necho "config=$BANKER_CONFIG args=$*"\n')
    (fake / "banker").chmod(0o755)
    env = {"PATH": os.environ["PATH"], "BANKER_HOME": str(tmp_path), "BANKER_AS_ME": "1"}
    run = subprocess.run([str(ROOT / "deploy" / "banker"), "cards", "list"], env=env, capture_output=True, text=True,
                         timeout=30)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "config=/etc/monopoly-banker/banker.toml args=cards list"
    own = tmp_path / "x.toml"  # a config of one's own is passed on as it is
    mine = subprocess.run([str(ROOT / "deploy" / "banker"), "doctor"], env={**env, "BANKER_CONFIG": str(own)},
                          capture_output=True, text=True, timeout=30)
    assert mine.stdout.strip() == f"config={own} args=doctor"
    missing = subprocess.run([str(ROOT / "deploy" / "banker")], env={**env, "BANKER_HOME": str(tmp_path / "none")},
                             capture_output=True, text=True, timeout=30)
    assert missing.returncode == 3 and "install.sh" in missing.stderr


def test_install_pi_documents_which_ledger_a_command_uses_and_the_lock():
    text = (DOCS / "install-pi.md").read_text(encoding="utf-8")
    order = [text.index(s) for s in ("1. `--db PATH`", "2. the `BANKER_DB` variable", "3. the config's `[unit] db`",
                                     "4. `ledger.db` in the user's data folder")]
    assert order == sorted(order)
    assert "exit code 3" in text and "sudo systemctl stop monopoly-banker" in text
    assert "sudo banker doctor" in text
