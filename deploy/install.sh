#!/usr/bin/env bash
# Install the banker unit on a Raspberry Pi running Raspberry Pi OS (Bookworm), from this checkout.
#
#   sudo deploy/install.sh          # then: sudo banker doctor; sudo systemctl enable --now monopoly-banker
#
# What it does, each step safe to run again (docs/install-pi.md explains them):
#  1. the system packages; SPI, I2C (and the serial port's hardware, for an RDM6300) switched on
#  2. a system user "banker", in whichever of the gpio, spi, i2c and dialout groups exist
#  3. a venv in /opt/monopoly-banker/venv with this checkout and its [pi] extra
#  4. "banker" on the PATH (/usr/local/bin/banker: the unit's config, as the user "banker")
#  5. /etc/monopoly-banker/banker.toml (kept if it is there), /var/lib/monopoly-banker for the ledger,
#     /var/lib/monopoly-banker-keys for its key (apart from it)
#  6. the systemd unit (installed and enabled; not started, so that "banker doctor" can run first)
set -euo pipefail

HOME_DIR=/opt/monopoly-banker
CONFIG_DIR=/etc/monopoly-banker
STATE_DIR=/var/lib/monopoly-banker
KEY_DIR=/var/lib/monopoly-banker-keys   # the ledgers' keys, apart from the ledger (docs/security.md)
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root: sudo $0" >&2
    exit 1
fi

step() { printf '\n== %s\n' "$*"; }

step "1. system packages, SPI and I2C"
apt-get update -qq
apt-get install -y -qq python3-venv python3-dev git i2c-tools swig liblgpio-dev >/dev/null
if command -v raspi-config >/dev/null; then
    raspi-config nonint do_spi 0
    raspi-config nonint do_i2c 0
    # serial hardware on, login shell on it off (an RDM6300 reader reads from /dev/serial0)
    raspi-config nonint do_serial_hw 0 2>/dev/null || true
    raspi-config nonint do_serial_cons 1 2>/dev/null || true
else
    echo "no raspi-config: switch on SPI and I2C yourself (dtparam=spi=on, dtparam=i2c_arm=on)"
fi

step "2. the system user banker"
if ! id banker >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin banker
fi
for group in gpio spi i2c dialout; do
    if getent group "$group" >/dev/null; then
        usermod -a -G "$group" banker
    fi
done
id banker

step "3. the banker in $HOME_DIR/venv"
install -d -m 0755 "$HOME_DIR"
if [ "$SRC" != "$HOME_DIR/src" ]; then
    rm -rf "$HOME_DIR/src.new"
    cp -a "$SRC" "$HOME_DIR/src.new"
    rm -rf "$HOME_DIR/src.new/.venv" "$HOME_DIR/src"
    mv "$HOME_DIR/src.new" "$HOME_DIR/src"
fi
python3 -m venv "$HOME_DIR/venv"
"$HOME_DIR/venv/bin/pip" install --quiet --upgrade pip
"$HOME_DIR/venv/bin/pip" install --quiet "$HOME_DIR/src[pi]"

step "4. banker on the PATH"
install -m 0755 "$HOME_DIR/src/deploy/banker" /usr/local/bin/banker
command -v banker

step "5. the config and the ledger's folder"
install -d -m 0755 "$CONFIG_DIR"
if [ ! -e "$CONFIG_DIR/banker.toml" ]; then
    install -m 0644 "$HOME_DIR/src/docs/banker.example.toml" "$CONFIG_DIR/banker.toml"
    echo "wrote $CONFIG_DIR/banker.toml: check the display chip and the pins (docs/config.md)"
else
    echo "kept $CONFIG_DIR/banker.toml"
fi
install -d -o banker -g banker -m 0700 "$STATE_DIR"
if mountpoint -q "$KEY_DIR"; then
    echo "kept $KEY_DIR: a mounted key stick (docs/install-pi.md)"
else
    install -d -o banker -g banker -m 0700 "$KEY_DIR"
fi

step "6. the systemd unit"
install -m 0644 "$HOME_DIR/src/deploy/monopoly-banker.service" /etc/systemd/system/monopoly-banker.service
systemctl daemon-reload
systemctl enable monopoly-banker

cat <<DONE

Installed. Next:
  sudo reboot                                   # once, if SPI or I2C were just switched on
  sudo banker doctor                            # every device should answer (docs/troubleshooting.md)
  sudo systemctl start monopoly-banker          # the unit starts now, and at every boot
  journalctl -u monopoly-banker -f              # what it says
DONE
