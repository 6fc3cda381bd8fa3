#!/usr/bin/env bash
# Prove deploy/install.sh on a fresh Debian bookworm Pi image, emulated: an arm64 (or armhf) chroot made by
# debootstrap and run through qemu-user-static, as an image builder would. Not part of .ci/run: it takes
# 20-40 minutes under emulation (docs/install-pi.md, "Trying the install in an emulated chroot").
#
#   sudo deploy/test-chroot.sh            # arm64 (Raspberry Pi OS / Debian 64-bit)
#   sudo deploy/test-chroot.sh armhf      # 32-bit (Pillow is compiled: slower still)
#
# In the chroot it runs install.sh from this checkout, then, through the "banker" on the PATH (as the user
# banker): "banker script" on an example game, "banker doctor --backend hw-sim", "banker run --backend hw-sim"
# for a few seconds, and "banker doctor" on the real (here: missing) Pi devices, which must fail naming the
# cause. Debian's qemu-user-static, binfmt-support and debootstrap are installed with apt first. The chroot is
# kept in $CHROOT_DIR (default /var/tmp/monopoly-banker-chroot-ARCH) for a faster second run; delete it after.
set -euo pipefail

ARCH="${1:-arm64}"
case "$ARCH" in
    arm64) QEMU=qemu-aarch64 ;;
    armhf) QEMU=qemu-arm ;;
    *) echo "test-chroot.sh: arm64 or armhf, not $ARCH" >&2; exit 2 ;;
esac
SRC="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="${CHROOT_DIR:-/var/tmp/monopoly-banker-chroot-$ARCH}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

if [ "$(id -u)" -ne 0 ]; then
    echo "test-chroot.sh: run it as root: sudo $0" >&2
    exit 1
fi
started=$(date +%s)
step() { printf '\n== [%4ss] %s\n' "$(($(date +%s) - started))" "$*"; }

step "the emulator and debootstrap (Debian's packages)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends qemu-user-static binfmt-support debootstrap >/dev/null
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
update-binfmts --enable "$QEMU" 2>/dev/null || true
if [ ! -e "/proc/sys/fs/binfmt_misc/$QEMU" ]; then
    echo "test-chroot.sh: the kernel runs no $ARCH programs ($QEMU is not registered with binfmt_misc)" >&2
    exit 1
fi

mounted=()
cleanup() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        umount -l "${mounted[$i]}" 2>/dev/null || true
    done
}
trap cleanup EXIT
bind() { mount --bind "$1" "$2"; mounted+=("$2"); }

if [ ! -x "$ROOT/usr/bin/python3" ]; then
    step "debootstrap bookworm $ARCH into $ROOT"
    rm -rf "$ROOT"
    debootstrap --arch="$ARCH" --variant=minbase --include=python3 bookworm "$ROOT" "$MIRROR" >/dev/null
fi
mount -t proc proc "$ROOT/proc"; mounted+=("$ROOT/proc")
bind /sys "$ROOT/sys"
bind /dev "$ROOT/dev"
bind /dev/pts "$ROOT/dev/pts"
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"

step "this checkout into the chroot's /root/monopoly-banker"
rm -rf "$ROOT/root/monopoly-banker"
mkdir -p "$ROOT/root/monopoly-banker"
git -C "$SRC" ls-files -z --cached --others --exclude-standard \
    | (cd "$SRC" && tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$ROOT/root/monopoly-banker"

# pip in the chroot trusts what this machine trusts (a proxy that re-signs TLS, say), and goes through its proxy
mkdir -p "$ROOT/etc/ssl/certs"
cp -L /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/host-ca-certificates.crt"
passed=(PIP_CERT=/etc/ssl/certs/host-ca-certificates.crt)
for name in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
    if [ -n "${!name:-}" ]; then passed+=("$name=${!name}"); fi
done
in_chroot() {
    chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 "${passed[@]}" "$@"
}

step "install.sh"
in_chroot /root/monopoly-banker/deploy/install.sh
step "banker script examples/first-game.kps (as the user banker, the script read as root)"
in_chroot bash -c 'cd /root/monopoly-banker && chmod 700 /root && banker script examples/first-game.kps'
step "banker doctor --backend hw-sim"
in_chroot banker doctor --backend hw-sim
step "banker run --backend hw-sim --seconds 5"
in_chroot banker run --backend hw-sim --seconds 5
step "banker doctor: no Pi here, so it must fail and say why"
set +e
doctor=$(in_chroot banker doctor 2>&1)
status=$?
set -e
printf '%s\n' "$doctor"
if [ "$status" -eq 0 ] || ! grep -qi "not a Raspberry Pi" <<<"$doctor" || grep -q "No module named 'RPi'" <<<"$doctor"; then
    echo "test-chroot.sh: doctor should fail, naming the missing Pi (exit $status)" >&2
    exit 1
fi
step "the service is enabled for the first boot"
test -L "$ROOT/etc/systemd/system/multi-user.target.wants/monopoly-banker.service"
step "passed: install.sh works in a bookworm $ARCH chroot ($(($(date +%s) - started)) s)"
