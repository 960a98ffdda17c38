# Sourced by the Python oracles' install.sh scripts: builds a venv from a pinned requirements file once, and again only
# when the file changes (its sha256 is stamped in the venv). Needs python3 with the venv module and access to PyPI.
#   venv_install VENV REQUIREMENTS MARKER CHECK...
# MARKER is a file the finished venv has (skip when present and the stamp matches); CHECK is a command run after
# pip, in the venv's context, that fails if the install is unusable.
venv_install() {
  local venv="$1" req="$2" marker="$3"
  shift 3
  local stamp="$venv/.requirements.sha256"
  local want
  want="$(sha256sum "$req" | cut -d' ' -f1)"
  if [[ -e "$venv/$marker" && -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    return 0
  fi
  "${PYTHON:-python3}" -m venv "$venv"
  printf '*\n' >"$venv/.gitignore"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$req"
  "$@" >/dev/null
  printf '%s' "$want" >"$stamp"
}
