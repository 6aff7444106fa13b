#!/usr/bin/env bash
# The kit test tier's Python 3.12 environment: a real Kit 110.4 kernel and the real Isaac Sim 6.2 wheels from PyPI,
# plus what the ovphysx-backed test doubles need (docs/kit-extension.md, "The kit test tier").
#
#   bash tools/install_kit_tier.sh          # installs once, then only checks (a few seconds)
#   SIMREADY_KIT_HOME=/some/dir bash tools/install_kit_tier.sh
#
# Where: ${SIMREADY_KIT_HOME:-~/.cache/simready-physics/kit-6.2.0.0}/venv (pip's own cache keeps the wheels).
# Python 3.12: ${SIMREADY_KIT_PYTHON} if set, else python3.12 on PATH, else pyenv's newest 3.12.x.
# What is installed, exactly:
#   1. isaacsim-kernel==6.2.0.0 with its dependencies (the kernel: carb, omni.kit.app, the async engine; it brings
#      numpy, pydantic 2, jinja2 ...);
#   2. with --no-deps (no resolution beyond them): isaacsim-extscache-physics, isaacsim-core, isaacsim-app, isaacsim
#      6.2.0.0 (omni.physx & co 110.4.4, isaacsim.core.*, the .kit app files);
#   3. the test doubles' physics and USD: ovphysx (the Omni PhysX runtime behind the omni.physx double), usd-core
#      (pxr: the kernel wheels ship no USD libraries), the PhysX / Newton schema packages, pinned to the versions the
#      project's Python 3.11 environment runs.
set -euo pipefail

KIT_VERSION=6.2.0.0
HOME_DIR="${SIMREADY_KIT_HOME:-$HOME/.cache/simready-physics/kit-$KIT_VERSION}"
VENV="$HOME_DIR/venv"
DOUBLE_DEPS=(ovphysx==0.7.0.74035321 usd-core==26.11 physx-usd-schemas==25.11.2.72696984 newton-usd-schemas==0.6.0
             packaging==23.2)
NO_DEPS=(isaacsim-extscache-physics==$KIT_VERSION isaacsim-core==$KIT_VERSION isaacsim-app==$KIT_VERSION
         isaacsim==$KIT_VERSION)
STAMP_TEXT="isaacsim-kernel==$KIT_VERSION ${NO_DEPS[*]} ${DOUBLE_DEPS[*]}"
STAMP="$VENV/.simready-kit-tier"
# importing isaacsim would start the kernel (and ask for the EULA): look the packages up instead
CHECK="import importlib.util as u, sys; sys.exit(any(u.find_spec(m) is None for m in ('isaacsim', 'ovphysx', 'pxr')))"

if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$STAMP_TEXT" ] && "$VENV/bin/python" -c "$CHECK" 2>/dev/null; then
    echo "kit tier: $VENV is ready"
    exit 0
fi

find_python() {
    if [ -n "${SIMREADY_KIT_PYTHON:-}" ]; then echo "$SIMREADY_KIT_PYTHON"; return; fi
    if python3.12 -c 'import sys; assert sys.version_info[:2] == (3, 12)' 2>/dev/null; then echo python3.12; return; fi
    if command -v pyenv >/dev/null 2>&1; then
        local v
        v=$(pyenv versions --bare 2>/dev/null | grep -E '^3\.12\.[0-9]+$' | sort -V | tail -1 || true)
        if [ -n "$v" ]; then echo "$(pyenv root)/versions/$v/bin/python3.12"; return; fi
    fi
    return 1
}

if ! PY=$(find_python); then
    echo "kit tier: no Python 3.12 found (isaacsim-kernel 6.2 is built for CPython 3.12 only)." >&2
    echo "  Install one (e.g. 'pyenv install 3.12' or your distribution's python3.12) or set SIMREADY_KIT_PYTHON." >&2
    exit 1
fi

start=$(date +%s)
echo "kit tier: creating $VENV with $("$PY" --version 2>&1)"
rm -rf "$VENV"
mkdir -p "$HOME_DIR"
"$PY" -m venv "$VENV"
PIP=("$VENV/bin/python" -m pip install --quiet --quiet --disable-pip-version-check)
"${PIP[@]}" "isaacsim-kernel==$KIT_VERSION"
"${PIP[@]}" --no-deps "${NO_DEPS[@]}"
"${PIP[@]}" "${DOUBLE_DEPS[@]}"
"$VENV/bin/python" -c "$CHECK"
echo "$STAMP_TEXT" >"$STAMP"
echo "kit tier: installed in $(( $(date +%s) - start )) s ($(du -sh "$VENV" | cut -f1))"
