#!/usr/bin/env bash
# Install the Room 25 Companion as a service on Raspberry Pi OS, from this clone:
#   sudo systemd/install.sh
# Creates the user room25 (groups gpio, i2c, dialout), installs the companion with its Raspberry
# Pi backends in /opt/room25/.venv, the settings in /etc/room25/room25.toml (kept if present)
# and the unit room25.service, then starts it. Run it again to update.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root: sudo $0" >&2
    exit 1
fi
here="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/room25
data=/var/lib/room25

if ! command -v python3 >/dev/null || ! python3 -c "import venv, ensurepip" 2>/dev/null; then
    apt-get update
    apt-get install -y python3-venv
fi
# The voice (docs/speakers.md): espeak-ng speaks, aplay (alsa-utils) plays.
if ! command -v espeak-ng >/dev/null || ! command -v aplay >/dev/null; then
    apt-get update
    apt-get install -y espeak-ng alsa-utils
fi
if ! id room25 >/dev/null 2>&1; then
    useradd --system --home-dir "$data" --no-create-home --shell /usr/sbin/nologin room25
fi
for group in gpio i2c dialout audio; do
    if getent group "$group" >/dev/null; then
        usermod -a -G "$group" room25
    else
        echo "install.sh: no group $group here (is this Raspberry Pi OS?); skipped" >&2
    fi
done

install -d -m 0755 "$prefix"
tar -C "$here" --exclude=./.venv --exclude=./.git --exclude=./.compiled -cf - . | tar -C "$prefix" -xf -
python3 -m venv "$prefix/.venv"
"$prefix/.venv/bin/pip" install --quiet --upgrade pip
"$prefix/.venv/bin/pip" install --quiet "$prefix[pi]"

install -d -o room25 -g room25 -m 0750 "$data"
if [ ! -e /etc/room25/room25.toml ]; then
    install -D -m 0644 "$here/wiring/room25.toml" /etc/room25/room25.toml
fi
install -m 0644 "$here/systemd/room25.service" /etc/systemd/system/room25.service
systemctl daemon-reload
systemctl enable room25.service
systemctl restart room25.service
echo "room25 is running: systemctl status room25, journalctl -u room25 -f"
