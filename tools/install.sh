#!/usr/bin/env bash
# Install the validator with videos: the package (verdicts and the HTML report need nothing more) with its
# [video] extra into the active Python, and Mesa's EGL/OpenGL software stack that VTK renders the videos with
# (no display, no GPU needed) through apt-get. Idempotent: installs only what is missing. apt-get needs root;
# without it the missing Debian packages are named and the install goes on: every verdict and the HTML report
# work, and each test's result says why its video was not recorded.
set -euo pipefail
cd "$(dirname "$0")/.."
venv_hint="python3 -m venv .venv && . .venv/bin/activate (Debian/Ubuntu: apt-get install python3-venv), then run this again"
PY="$(command -v python || command -v python3 || true)"
if [ -z "$PY" ] || ! "$PY" -m pip --version >/dev/null 2>&1; then
    echo "install: no Python with pip found; make a virtual environment: $venv_hint" >&2
    exit 1
fi
if ! "$PY" -m pip install --quiet --disable-pip-version-check -e ".[video]"; then
    echo "install: pip could not install the package (a system Python refuses, PEP 668); use a virtual environment: $venv_hint" >&2
    exit 1
fi
grep -qw avx /proc/cpuinfo 2>/dev/null || \
    echo "install: this CPU reports no AVX, which the default physx engine (ovphysx) needs; pip install -e '.[sapien]' and use --engine sapien" >&2

missing=()
ldconfig -p | grep -q 'libEGL_mesa.so.0' || missing+=(libegl-mesa0 libegl1)
ldconfig -p | grep -q 'libGL.so.1' || missing+=(libgl1)
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || ls /usr/lib/*/dri/swrast_dri.so >/dev/null 2>&1 || missing+=(libgl1-mesa-dri)
ldconfig -p | grep -q 'libXrender.so.1' || missing+=(libxrender1)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != "0" ]; then
        echo "install: videos need these Debian packages (run as root to install them): ${missing[*]}; verdicts and the HTML report work without" >&2
        echo "installed: $(simready-physics --version 2>/dev/null || echo simready-physics)"
        exit 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null || true
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || \
        echo "install: apt-get install failed for: ${missing[*]} (videos will be skipped)" >&2
fi
echo "installed: $(simready-physics --version 2>/dev/null || echo simready-physics)"
