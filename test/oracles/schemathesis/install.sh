#!/usr/bin/env bash
# Installs Schemathesis (the OpenAPI fuzzer that test/api/schemathesis.test.ts runs against /api/v3/openapi.json)
# and its pinned dependencies into test/oracles/.venv-st (idempotent, quiet), then checks that its CLI runs.
# Needs python3 (>= 3.11) with the venv module and access to PyPI.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../venv.sh"
venv="$here/../.venv-st"
venv_install "$venv" "$here/requirements.txt" bin/st "$venv/bin/st" --version
