#!/usr/bin/env bash
# Test setup for the video and HTML-report tests: the [video], [html] and [test-browser] extras,
# Debian's chromium (driven by playwright with executable_path, no browser download), and Mesa's
# EGL/OpenGL software stack that VTK renders offscreen with (no display, no GPU).
# Idempotent: installs only what is missing. Needs root for apt-get (as on the dev machines and CI).
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/install.sh  # the package with [video,html] and the Mesa libraries VTK renders with
python -m pip install --quiet --disable-pip-version-check -e ".[video,html,test-browser]"

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)

if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != "0" ]; then
        echo "install_test_browser: need root to apt-get install: ${missing[*]}" >&2
        exit 0  # the tests that need them skip with the reason
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null || true
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || \
        echo "install_test_browser: apt-get install failed for: ${missing[*]}" >&2
fi
command -v chromium >/dev/null 2>&1 && echo "test browser: $(chromium --version 2>/dev/null | head -1)" || true
