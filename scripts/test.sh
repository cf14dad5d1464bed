#!/usr/bin/env bash
# Runs the whole test suite inside a keyring session where one can be made (scripts/keyring.sh),
# so keychain tests meet a real Secret Service.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash scripts/keyring.sh npx vitest run "$@"
