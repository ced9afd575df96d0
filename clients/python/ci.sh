#!/usr/bin/env bash
# CI for the Python client and pytest plugin, run from the repository root after `npm ci` built
# dist/ (.ci/run). Debian's python3 and pytest (installed here when missing), no PyPI: the package
# builds with Debian's setuptools (--no-build-isolation --no-index). It runs the client's own tests
# against a real sandbox process, then installs the package the way a user does, from git
# (a local clone of this checkout), and runs a suite with it. Everything it makes is in a temporary
# folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
PY=/usr/bin/python3   # Debian's: python3-pytest is installed for it (python3 on the PATH may be another)

missing=()
command -v git >/dev/null || missing+=(git)
[ -x "$PY" ] || missing+=(python3)
"$PY" -c 'import pytest' 2>/dev/null || missing+=(python3-pytest)
"$PY" -c 'import ensurepip' 2>/dev/null || missing+=(python3-venv)
"$PY" -c 'import setuptools, wheel' 2>/dev/null || missing+=(python3-setuptools python3-wheel)
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

# The sandbox the tests start (once per run): this checkout's server, unless told otherwise.
export JIGUANG_SANDBOX_COMMAND="${JIGUANG_SANDBOX_COMMAND:-node $ROOT/dist/server.js}"
export PYTHONDONTWRITEBYTECODE=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
pip_install() { "$1/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation --no-index "$2"; }

# 1. The client's own tests, on the package built from this working tree (a copy: setuptools
#    builds in place, and the checkout stays as it was).
cp -R clients/python "$work/package"
"$PY" -m venv --system-site-packages "$work/venv"
pip_install "$work/venv" "$work/package"
(cd clients/python && "$work/venv/bin/python" -m pytest -q -p no:cacheprovider --basetemp="$work/pytest" tests)

# 2. The README's install line, from a git clone of this checkout (standing for the git host):
#    pip install "git+<repository>@<ref>#subdirectory=clients/python"
if [ -n "$(git status --porcelain -- clients/python)" ]; then
  echo "clients/python has uncommitted changes: the install from git takes the last commit" >&2
fi
git clone -q "$ROOT" "$work/origin"
ref=$(git rev-parse HEAD)
"$PY" -m venv --system-site-packages "$work/user"
pip_install "$work/user" "git+file://$work/origin@$ref#subdirectory=clients/python"
# The README's suite (its ```python block), on that install.
mkdir "$work/suite"
awk '/^```python$/ { on = 1; next } /^```/ { on = 0 } on' clients/python/README.md >"$work/suite/test_readme.py"
(cd "$work/suite" && "$work/user/bin/python" -m pytest -q -p no:cacheprovider test_readme.py)
echo "clients/python: tests passed; installed from git+file://…@$ref#subdirectory=clients/python"
