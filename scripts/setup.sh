#!/usr/bin/env bash
# Shared by scripts/start, scripts/test and scripts/compile: make .venv and install the project
# into it, with the Debian packages the caller needs.
# Usage: source scripts/setup.sh EXTRAS [DEBIAN-PACKAGE...]
#   EXTRAS such as "", "dev" or "pi"; each Debian package is installed if missing (one apt call).
# Nothing is reinstalled while pyproject.toml, the Pi's constraints and the extras are unchanged
# (a stamp in .venv), so a second start needs no network; with no network and an out-of-date
# install, what is installed is kept and one line says so.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
python="${PYTHON:-python3}"
extras="${1:-}"
packages=("${@:2}")
venv="$here/.venv"
stamp="$venv/.room25-installed"
install_log="$venv/install.log"
# A Raspberry Pi takes lgpio, Pillow and PyYAML from Raspberry Pi OS (built for it, no compiler
# needed: requirements/pi-system.txt) and holds every other dependency on a wheel
# (requirements/pi-constraints.txt; docs/pi-setup.md).
pi_system="$here/requirements/pi-system.txt"
pi_constraints="$here/requirements/pi-constraints.txt"
mapfile -t pi_packages < <(awk '!/^#/ && NF { print $4 }' "$pi_system")

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Room 25 Companion needs Python 3.11 or newer; '$python' is $("$python" --version 2>&1)." >&2
    exit 1
fi

# The Debian packages of a list that are not installed, one a line.
missing_packages() {
    local package
    for package in "$@"; do
        dpkg-query -W -f='${db:Status-Status}\n' "$package" 2>/dev/null | grep -qx installed ||
            printf '%s\n' "$package"
    done
}

# Install Debian packages: as root directly, else through sudo; with neither, one sentence.
apt_install() {
    local sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null 2>&1; then
            echo "Please have an administrator run 'apt-get install $*' (this account is not root and has no sudo), then run $(basename "$0") again." >&2
            return 1
        fi
        sudo_cmd=(sudo)
    fi
    echo "Installing $*..." >&2
    local said
    said="$(mktemp)"
    # apt's own notices (debconf's among them) are shown only if it fails. A machine just booted
    # often runs its own updates (unattended-upgrades, PackageKit): wait for dpkg's lock, not fail.
    local wait=(-o DPkg::Lock::Timeout=600)
    if ! { "${sudo_cmd[@]}" apt-get "${wait[@]}" update -qq &&
        "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${wait[@]}" install -y -qq "$@"; } \
        >"$said" 2>&1; then
        cat "$said" >&2
        rm -f "$said"
        return 1
    fi
    rm -f "$said"
}

# Install whichever of these Debian packages are missing; fails only if some could not be.
install_missing() {
    local missing
    if ! command -v dpkg-query >/dev/null 2>&1; then
        echo "Not a Debian system: make sure these (Debian's names) are installed: $*." >&2
        return 0
    fi
    mapfile -t missing < <(missing_packages "$@")
    [ "${#missing[@]}" -eq 0 ] && return 0
    apt_install "${missing[@]}"
}

on_pi=""
case ",$extras," in *,pi,*) on_pi=1 ;; esac
# Debian and Raspberry Pi OS ship venv and ensurepip in a separate package (needed to make .venv).
[ -x "$venv/bin/python" ] || "$python" -c 'import venv, ensurepip' 2>/dev/null ||
    packages+=(python3-venv)
[ -n "$on_pi" ] && packages+=("${pi_packages[@]}")
if [ "${#packages[@]}" -gt 0 ]; then
    install_missing "${packages[@]}" || exit 1
fi

if [ ! -x "$venv/bin/python" ]; then
    if [ -n "$on_pi" ]; then
        "$python" -m venv --system-site-packages "$venv"
    else
        "$python" -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip \
        >"$install_log" 2>&1 ||
        echo "Could not update pip in .venv (no network?): keeping the one Python gave." >&2
elif [ -n "$on_pi" ]; then
    # A venv made before the Pi used its system packages sees them from now on.
    sed -i 's/^include-system-site-packages = false$/include-system-site-packages = true/' \
        "$venv/pyvenv.cfg"
fi

# What the install was made from: the project's settings, the Pi's constraints, the interpreter.
wanted="$(cat "$here/pyproject.toml" "$pi_system" "$pi_constraints" | sha256sum | cut -d' ' -f1) $("$venv/bin/python" -V 2>&1)"
installed_extras=()
up_to_date=""
if [ -f "$stamp" ] && [ "$(head -n 1 "$stamp")" = "$wanted" ]; then
    mapfile -t installed_extras < <(tail -n +2 "$stamp")
    up_to_date=1
    for extra in ${extras//,/ }; do
        printf '%s\n' "${installed_extras[@]}" | grep -qx "$extra" || up_to_date=""
    done
fi

# The project is built by the venv's own setuptools (no isolated build fetching it each time);
# pip's and the build's notices go to .venv/install.log, not the terminal.
install_project() {
    local pip=("$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@")
    [ -n "$on_pi" ] && pip+=(--only-binary=:all: --constraint "$pi_constraints")
    "$venv/bin/python" -c 'import sys
from importlib.metadata import version
sys.exit(int(version("setuptools").split(".")[0]) < 77)' 2>/dev/null ||
        "${pip[@]}" "setuptools>=77" || return 1
    "${pip[@]}" --no-build-isolation -e "$target"
}

if [ -z "$up_to_date" ]; then
    target="$here"
    [ -n "$extras" ] && target="$here[$extras]"
    installed=""
    "$venv/bin/python" -c 'import companion' 2>/dev/null && installed=1
    # Installed before: what is already in .venv may do (no network needed), else ask PyPI,
    # briefly (a table with no internet waits seconds, not minutes).
    if { if [ -n "$installed" ]; then
        install_project --no-index || install_project --retries 1 --timeout 10
    else
        install_project
    fi; } >>"$install_log" 2>&1; then
        { echo "$wanted"; printf '%s\n' "${installed_extras[@]}" ${extras//,/ }; } |
            awk 'NF && !seen[$0]++' >"$stamp"
    elif [ -n "$installed" ]; then
        echo "Could not update the install (no network?): running what is installed (.venv/install.log says why)." >&2
    else
        tail -n 20 "$install_log" >&2
        echo "The install failed (above; all of it in .venv/install.log)." >&2
        exit 1
    fi
fi
