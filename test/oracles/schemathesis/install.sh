#!/usr/bin/env bash
# Installs Schemathesis (the OpenAPI fuzzer that test/api/schemathesis.test.ts runs against /api/v3/openapi.json)
# and its pinned dependencies into test/oracles/.venv-st (idempotent, quiet), then checks that its CLI runs.
# Needs python3 (>= 3.11) with the venv module and access to PyPI.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/../.venv-st"
req="$here/requirements.txt"
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$req" | cut -d' ' -f1)"
if [[ -x "$venv/bin/st" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi
python="${PYTHON:-python3}"
"$python" -m venv "$venv"
printf '*\n' >"$venv/.gitignore"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$req"
"$venv/bin/st" --version >/dev/null
printf '%s' "$want" >"$stamp"
