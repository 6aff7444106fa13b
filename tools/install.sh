#!/usr/bin/env bash
# Install the validator with video and HTML reports: the package with its [video,html] extras, and
# Mesa's EGL/OpenGL software stack that VTK renders the videos with (no display, no GPU needed).
# Idempotent: installs only what is missing. apt-get needs root; without it videos are skipped with a warning.
set -euo pipefail
cd "$(dirname "$0")/.."
python -m pip install --quiet --disable-pip-version-check -e ".[video,html]"

missing=()
ldconfig -p | grep -q 'libEGL_mesa.so.0' || missing+=(libegl-mesa0 libegl1)
ldconfig -p | grep -q 'libGL.so.1' || missing+=(libgl1)
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || ls /usr/lib/*/dri/swrast_dri.so >/dev/null 2>&1 || missing+=(libgl1-mesa-dri)
ldconfig -p | grep -q 'libXrender.so.1' || missing+=(libxrender1)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != "0" ]; then
        echo "install: videos need these Debian packages (run as root to install): ${missing[*]}" >&2
        exit 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null || true
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || \
        echo "install: apt-get install failed for: ${missing[*]} (videos will be skipped)" >&2
fi
echo "installed: $(simready-physics --version 2>/dev/null || echo simready-physics)"
