#!/usr/bin/env bash
# Install the Room 25 Companion as a service on Raspberry Pi OS, from this folder (a clone, an
# unpacked release archive or a copy from a USB stick):
#   sudo systemd/install.sh
# Creates the user room25 (groups gpio, i2c, dialout, audio), copies the companion to /opt/room25
# and installs it there as scripts/start does on a Pi (scripts/setup.sh: Raspberry Pi OS's lgpio,
# Pillow and PyYAML, every other dependency on a wheel, nothing compiled), the settings in
# /etc/room25/room25.toml (kept if present) and the unit room25.service (with /dev/gpiomem opened
# when the settings choose RPi.GPIO), then starts it. Run it again to update.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root: sudo $0" >&2
    exit 1
fi
here="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/room25
data=/var/lib/room25
settings=/etc/room25/room25.toml

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
# The same install as scripts/start's on a Pi, into /opt/room25/.venv.
bash -c 'source "$1/scripts/setup.sh" pi' install "$prefix"
# The service cannot write beside its code (ProtectSystem=strict): compiled once here, so a
# Zero 2 W does not compile every module again at each start.
"$prefix/.venv/bin/python" -m compileall -q "$prefix/companion"

install -d -o room25 -g room25 -m 0750 "$data"
if [ ! -e "$settings" ]; then
    install -D -m 0644 "$here/wiring/room25.toml" "$settings"
fi
install -m 0644 "$here/systemd/room25.service" /etc/systemd/system/room25.service
# RPi.GPIO, where the settings choose it, opens /dev/gpiomem: a drop-in lets the unit open it.
dropin=/etc/systemd/system/room25.service.d/rpigpio.conf
factory="$("$prefix/.venv/bin/python" -c 'import sys
from companion.config import load_config
print(load_config(sys.argv[1]).buttons.pin_factory)' "$settings")"
if [ "$factory" = "rpigpio" ]; then
    install -D -m 0644 "$here/systemd/rpigpio.conf" "$dropin"
else
    rm -f "$dropin"
fi
systemctl daemon-reload
systemctl enable room25.service
systemctl restart room25.service
echo "room25 is running: systemctl status room25, journalctl -u room25 -f"
