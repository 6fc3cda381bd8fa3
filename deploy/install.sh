#!/usr/bin/env bash
# Install the banker unit on a Raspberry Pi from this checkout: Raspberry Pi OS or plain Debian (Bookworm), 64-bit
# (arm64) or 32-bit (armhf). It also runs in an image builder's chroot, where systemd isn't running
# (deploy/test-chroot.sh proves it in an emulated Debian arm64 chroot).
#
#   sudo deploy/install.sh          # then: sudo banker doctor; sudo systemctl start monopoly-banker
#
# What it does, each step safe to run again (docs/install-pi.md explains them):
#  1. the system packages (a C compiler and python3-dev for spidev, which has no wheel; on 32-bit, libjpeg and
#     zlib for Pillow, which has no 32-bit ARM wheel on PyPI); SPI, I2C (and the serial port's hardware, for an
#     RDM6300) switched on where raspi-config is there
#  2. a system user "banker", in the gpio, spi, i2c and dialout groups (on plain Debian, which has no gpio, spi
#     and i2c groups, they are made, with a udev rule that gives them the devices as Raspberry Pi OS does)
#  3. a venv in /opt/monopoly-banker/venv with this checkout and its [pi] extra
#  4. "banker" on the PATH (/usr/local/bin/banker: the unit's config, as the user "banker")
#  5. /etc/monopoly-banker/banker.toml (kept if it is there), /var/lib/monopoly-banker for the ledger,
#     /var/lib/monopoly-banker-keys for its key (apart from it)
#  6. the systemd unit (installed and enabled; not started, so that "banker doctor" can run first; with no running
#     systemd, as in a chroot, it is only enabled: it starts at the first boot)
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
# lgpio's wheels carry their C library (no swig, no liblgpio-dev); spidev has no wheel: pip compiles it.
packages="python3-venv python3-dev gcc libc6-dev i2c-tools"
arch="$(dpkg --print-architecture)"
case "$arch" in
    armhf|armel)
        # PyPI has no 32-bit ARM wheel of Pillow, so pip builds it (Raspberry Pi OS's piwheels has one)
        packages="$packages libjpeg-dev zlib1g-dev" ;;
esac
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086  # one word per package
apt-get install -y -qq --no-install-recommends $packages >/dev/null
if command -v raspi-config >/dev/null; then
    raspi-config nonint do_spi 0
    raspi-config nonint do_i2c 0
    # serial hardware on, login shell on it off (an RDM6300 reader reads from /dev/serial0)
    raspi-config nonint do_serial_hw 0 2>/dev/null || true
    raspi-config nonint do_serial_cons 1 2>/dev/null || true
else
    echo "no raspi-config (plain Debian): switch on SPI and I2C yourself (docs/install-pi.md, \"Plain Debian\")"
    install -d /etc/modules-load.d
    printf 'i2c-dev\n' >/etc/modules-load.d/monopoly-banker.conf
fi

step "2. the system user banker"
if ! id banker >/dev/null 2>&1; then
    useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin banker
fi
if [ ! -e /etc/udev/rules.d/99-com.rules ] && [ ! -e /usr/lib/udev/rules.d/99-com.rules ]; then
    # not Raspberry Pi OS (whose raspberrypi-sys-mods gives these groups the devices): the same, for the banker
    for group in gpio spi i2c; do
        getent group "$group" >/dev/null || groupadd --system "$group"
    done
    install -D -m 0644 "$SRC/deploy/60-monopoly-banker.rules" /etc/udev/rules.d/60-monopoly-banker.rules
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
# --prefer-binary: where the newest release has no wheel (cbor2 on 32-bit ARM needs Rust) an older wheel does
"$HOME_DIR/venv/bin/pip" install --quiet --prefer-binary "$HOME_DIR/src[pi]"

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
if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    systemctl enable monopoly-banker
else
    # no running systemd (an image builder's chroot): enable it as "systemctl enable" would, for the first boot
    install -d /etc/systemd/system/multi-user.target.wants
    ln -sf /etc/systemd/system/monopoly-banker.service \
        /etc/systemd/system/multi-user.target.wants/monopoly-banker.service
    echo "systemd isn't running here (a chroot?): monopoly-banker is enabled for the first boot"
fi

cat <<DONE

Installed. Next:
  sudo reboot                                   # once, if SPI or I2C were just switched on
  sudo banker doctor                            # every device should answer (docs/troubleshooting.md)
  sudo systemctl start monopoly-banker          # the unit starts now, and at every boot
  journalctl -u monopoly-banker -f              # what it says
DONE
