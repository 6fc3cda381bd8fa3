#!/usr/bin/env bash
# The tools the tests need that pip can't bring, each from Debian only when its command is missing:
#   chromium, chromedriver (the table page's browser tests), strace (the crash tests), sudo (the Pi's "banker"
#   command with two users), espeak-ng and aplay (the voice renders real speech), systemd-analyze (the Pi's service
#   file verified and scored), npm (the page's axe-core audit), and the fonts the page is drawn in.
# npm is asked of apt only where there is no npm at all: an image that ships Node.js with its own npm (NodeSource's
# nodejs) conflicts with Debian's npm ("nodejs : Conflicts: npm"), and one apt-get install naming it fails whole.
#
#   deploy/test-tools.sh           install what is missing (root, or through sudo)
#   deploy/test-tools.sh --check   install nothing: ask apt to resolve everything this script could install on this
#                                  machine (apt-get -s install), so a conflict fails here, not on a newcomer's machine
#   deploy/test-tools.sh --list    print the Debian packages this script could install on this machine
set -euo pipefail

# command  Debian package
TOOLS="chromium chromium
chromedriver chromium-driver
strace strace
sudo sudo
espeak-ng espeak-ng
aplay alsa-utils
systemd-analyze systemd"
FONT=/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "test-tools: not root and no sudo: as root, run: $*" >&2; exit 1; fi
}

# Every package this script could install here; with "missing", only those whose command (or file) is absent.
packages() {
    local want=$1 cmd pkg
    while read -r cmd pkg; do
        if [ "$want" = all ] || ! command -v "$cmd" >/dev/null; then echo "$pkg"; fi
    done <<<"$TOOLS"
    if [ "$want" = all ] || [ ! -e "$FONT" ]; then echo fonts-liberation; fi
    if ! command -v npm >/dev/null; then
        if command -v node >/dev/null && ! dpkg-query -W -f='${Status}' nodejs 2>/dev/null | grep -q installed; then
            echo "test-tools: node is here without npm and not from Debian: install npm with that Node.js" >&2
            exit 1
        fi
        echo npm
    fi
}

apt_lists_present() { compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; }

export DEBIAN_FRONTEND=noninteractive
case "${1:-}" in
--list)
    packages all ;;
--check)
    mapfile -t all < <(packages all)
    apt_lists_present || as_root apt-get update -q >/dev/null
    apt-get -s install -q --no-install-recommends "${all[@]}" >/dev/null ;;
"")
    mapfile -t missing < <(packages missing)
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "test-tools: installing ${missing[*]}" >&2
        as_root apt-get update -q
        as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi ;;
*)
    echo "usage: deploy/test-tools.sh [--check | --list]" >&2; exit 2 ;;
esac
