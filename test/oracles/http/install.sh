#!/usr/bin/env bash
# Installs toncenter's ton-http-api (the v2 reference server, Python) and its pinned dependencies into
# test/oracles/.venv-http (idempotent, quiet), then checks that pytonlib's bundled libtonlibjson loads here.
# Needs python3 (>= 3.9) with the venv module and access to PyPI.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/../.venv-http"
req="$here/requirements.txt"
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$req" | cut -d' ' -f1)"
if [[ -x "$venv/bin/ton-http-api" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  exit 0
fi
python="${PYTHON:-python3}"
"$python" -m venv "$venv"
printf '*\n' >"$venv/.gitignore"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$req"
"$venv/bin/python" - <<'PY'
import ctypes
from pytonlib.tonlibjson import get_tonlib_path
lib = ctypes.CDLL(get_tonlib_path())
assert lib.tonlib_client_json_create, 'libtonlibjson has no tonlib_client_json_create'
PY
printf '%s' "$want" >"$stamp"
