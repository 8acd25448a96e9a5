#!/usr/bin/env bash
# Shared by scripts/start and scripts/test: make .venv and install the project into it.
# Usage: source scripts/setup.sh EXTRAS   (EXTRAS such as "" or "dev")
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-python3}"

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Room 25 Companion needs Python 3.11 or newer; '$python' is $("$python" --version 2>&1)." >&2
    exit 1
fi

# Install Debian packages, through sudo unless already root (scripts/test uses it too).
apt_install() {
    local sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "$@" >/dev/null
}

# Debian and Raspberry Pi OS ship venv and ensurepip in a separate package.
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
    echo "Installing python3-venv (Debian keeps venv in its own package)..." >&2
    apt_install python3-venv
fi

if [ ! -x "$here/.venv/bin/python" ]; then
    "$python" -m venv "$here/.venv"
fi
extras="${1:-}"
target="$here"
[ -n "$extras" ] && target="$here[$extras]"
# Installed once per command: scripts/test runs scripts/compile, which sources this file again.
if [ "${ROOM25_INSTALLED:-}" != "$target" ]; then
    "$here/.venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
    "$here/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$target"
    export ROOM25_INSTALLED="$target"
fi
