#!/usr/bin/env bash
# Rebuild the HTML report's three.js bundle (reports/viewer/three-replay.min.js) from the npm registry, with the
# versions pinned in tools/replay_viewer/package.json and package-lock.json: three.js (MIT) and esbuild (build only).
# The bundle is committed: a report never fetches anything at view time, and no install step needs npm.
#   bash tools/build_replay_viewer.sh [WORK]        (WORK: where node_modules go; default a temp folder)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
viewer="$here/../exts/omni.simready.physics_validator/omni/simready/physics_validator/reports/viewer"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
cp "$here/replay_viewer/package.json" "$here/replay_viewer/package-lock.json" "$here/replay_viewer/entry.js" "$work/"
(cd "$work" && npm ci --no-audit --no-fund)
version="$(node -p "require('$work/node_modules/three/package.json').version")"
"$work/node_modules/.bin/esbuild" "$work/entry.js" --bundle --minify --format=iife --global-name=SimreadyThree \
  --legal-comments=none --target=es2018 \
  --banner:js="/* three.js $version (https://threejs.org), MIT licence: three.LICENSE.txt beside this file. Bundled by tools/build_replay_viewer.sh: GLTFLoader, OrbitControls and the core parts the replay viewer uses. */" \
  --outfile="$viewer/three-replay.min.js"
cp "$work/node_modules/three/LICENSE" "$viewer/three.LICENSE.txt"
sha256sum "$viewer/three-replay.min.js"
