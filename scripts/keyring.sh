#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, where both are
# installed, so ScanDesk's keychain is a real Secret Service (tests, benchmarks); else as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${SCANDESK_KEYRING_READY:-}" ] && command -v dbus-run-session >/dev/null 2>&1 \
  && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  exec dbus-run-session -- sh -c '
    export XDG_RUNTIME_DIR="$(mktemp -d)" XDG_DATA_HOME="$(mktemp -d)" SCANDESK_KEYRING_READY=1
    printf %s scandesk-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null
    exec "$@"' sh "$@"
fi
exec "$@"
