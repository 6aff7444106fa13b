#!/usr/bin/env bash
# Proves that a bare `pip install .` (no extras) is enough for verdicts, the HTML report and the 3D replays: a fresh
# venv, the package from this checkout, then one validate run on a mesh-collider asset (the default media policy: no
# video, nothing said about the [video] extra) and one with `--media failing` (videos wanted: the missing extra said
# once). Fails when a test ends as ERROR, when the HTML report or a test's .replay.glb is missing, or when the missing
# [video] extra is not said exactly once where videos were asked for (and never where they were not).
#
#   bash tools/check_bare_install.sh [ASSET.usd] [VENV_DIR]
#
# ASSET defaults to the shared corpus' pb_mug/floating_base.usda (mesh colliders); VENV_DIR to a new temp folder
# (removed afterwards unless given). Prints the install time and size and the run's verdicts.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
asset="${1:-$repo/../shared/assets/pb_mug/floating_base.usda}"
venv="${2:-}"
[ -f "$asset" ] || { echo "check_bare_install: asset not found: $asset" >&2; exit 2; }
PY="$(command -v python3 || command -v python)"
keep_venv="$venv"
[ -n "$venv" ] || venv="$(mktemp -d /tmp/bare-venv.XXXXXX)"
out="$(mktemp -d /tmp/bare-report.XXXXXX)"
cleanup() { rm -rf "$out"; [ -n "$keep_venv" ] || rm -rf "$venv"; }
trap cleanup EXIT

start=$(date +%s)
"$PY" -m venv "$venv"
if ! "$venv/bin/python" -m pip install --disable-pip-version-check "$repo" >"$out/pip.log" 2>&1; then
    tail -20 "$out/pip.log" >&2
    echo "check_bare_install: pip install failed" >&2
    exit 1
fi
seconds=$(( $(date +%s) - start ))
size="$(du -sh "$venv" | cut -f1)"
echo "bare install: ${seconds} s, venv ${size} ($("$venv/bin/python" --version))"

set +e
(cd "$out" && "$venv/bin/simready-physics" validate "$asset" --out "$out/report" >"$out/stdout" 2>"$out/stderr")
code=$?
(cd "$out" && "$venv/bin/simready-physics" validate "$asset" --media failing --out "$out/videos" >/dev/null 2>"$out/stderr_videos")
set -e
cat "$out/stdout" "$out/stderr"
echo "exit code: $code"

"$venv/bin/python" - "$out" "$code" <<'EOF'
import json, sys
from pathlib import Path

out, code = Path(sys.argv[1]), int(sys.argv[2])
problems = []
report_path = out / "report" / "report.json"
report = json.loads(report_path.read_text()) if report_path.exists() else {"assets": []}
if not report_path.exists():
    problems.append("no report written (the run did not start: see its error line above)")
results = [(Path(a["path"]).name, t["name"], t["status"], t["reason"]) for a in report["assets"] for t in a["tests"]]
errors = [r for r in results if r[2] == "ERROR"]
if errors or code == 3:
    problems.append(f"ERROR verdicts: {errors}")
if not list((out / "report").rglob("index.html")):
    problems.append("no HTML report written")
if not list((out / "report").rglob("*.replay.glb")):
    problems.append("no 3D replay written")
said = [line for line in (out / "stderr").read_text().splitlines() if "[video]" in line]
if said:
    problems.append(f"the default run (no video wanted) named the [video] extra: {said}")
notices = [line for line in (out / "stderr_videos").read_text().splitlines() if "[video]" in line]
if len(notices) != 1 or "pip install" not in notices[0]:
    problems.append(f"expected one line naming the [video] extra and its pip command with --media failing, got {notices}")
print("verdicts: " + ", ".join(f"{test} {status}" for _, test, status, _ in results))
if problems:
    print("check_bare_install: FAILED\n  " + "\n  ".join(problems), file=sys.stderr)
    sys.exit(1)
print("check_bare_install: ok (no ERROR, HTML report and 3D replays written, the missing video extra said once where "
      "videos were asked for)")
EOF
