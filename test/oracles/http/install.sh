#!/usr/bin/env bash
# Installs toncenter's ton-http-api (the v2 reference server, Python) and its pinned dependencies into
# test/oracles/.venv-http (idempotent, quiet), then checks that pytonlib's bundled libtonlibjson loads here.
# Needs python3 (>= 3.9) with the venv module and access to PyPI.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../venv.sh"
venv="$here/../.venv-http"
venv_install "$venv" "$here/requirements.txt" bin/ton-http-api "$venv/bin/python" -c '
import ctypes
from pytonlib.tonlibjson import get_tonlib_path
lib = ctypes.CDLL(get_tonlib_path())
assert lib.tonlib_client_json_create, "libtonlibjson has no tonlib_client_json_create"
'
