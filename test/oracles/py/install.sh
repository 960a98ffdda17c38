#!/usr/bin/env bash
# Installs the pytoniq oracle's pinned Python packages into test/oracles/.venv-py (idempotent, quiet).
# Needs python3 (>= 3.9) with the venv module and access to PyPI.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/../.venv-py"
req="$here/requirements.txt"
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$req" | cut -d' ' -f1)"
if [[ -x "$venv/bin/python" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi
python="${PYTHON:-python3}"
"$python" -m venv "$venv"
printf '*\n' >"$venv/.gitignore"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$req"
"$venv/bin/python" -c 'import pytoniq, pytoniq_core' 
printf '%s' "$want" >"$stamp"
