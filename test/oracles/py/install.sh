#!/usr/bin/env bash
# Installs the pytoniq oracle's pinned Python packages into test/oracles/.venv-py (idempotent, quiet).
# Needs python3 (>= 3.9) with the venv module and access to PyPI.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../venv.sh"
venv="$here/../.venv-py"
venv_install "$venv" "$here/requirements.txt" bin/python "$venv/bin/python" -c 'import pytoniq, pytoniq_core'
