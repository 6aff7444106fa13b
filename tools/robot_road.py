"""The robot author's road on converted robots (issue 37): as imported -> `fix --add-drives` -> the `.fixed` wrapper.

    python tools/robot_road.py ROBOTS_DIR [--work DIR] [--only z1,xarm7] [--rerun] [--md docs/fix-robots.md]

ROBOTS_DIR is what `bash tools/convert_robots.sh ROBOTS_DIR` builds (robots.json lists each robot: id, source package,
asset). Each step is the command a user runs, as a subprocess, its output kept under WORK/<id>/ (a step whose report
exists is not run again unless --rerun):

1. `simready-physics validate ASSET --no-video`: the headline and exit code as imported;
2. `simready-physics fix ASSET --add-drives -j 1`: the status, and per joint the first drive proposed (stiffness in
   N·m/rad, maxForce in N·m) against the rated effort the converter carried (`urdf:limit:effort`);
3. `simready-physics validate ASSET.fixed.usda --no-video` when a layer was accepted: every driven-joint row must
   PASS or sit on a joint `fix` named with a measured cause.

Writes the summary table and per-robot details to --md and prints the summary. Exits 1 when an accepted layer leaves
a driven-joint row failing on a joint `fix` did not name (the rule "accepted" answers to), 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "omni.simready.physics_validator.cli"]
DRIVEN = ("velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit", "state_accuracy",
          "multi_joint_coordination", "mimic_joint")
FAILING = ("FAIL", "WARN", "ERROR")
DEG = 180.0 / math.pi


def run(args: list[str], log: Path) -> tuple[int, float]:
    log.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with open(log, "w", encoding="utf-8") as out:
        code = subprocess.run([*CLI, *args], stdout=out, stderr=subprocess.STDOUT, cwd=log.parent).returncode
    return code, time.monotonic() - started


def step(name: str, args: list[str], folder: Path, rerun: bool) -> dict:
    """Run one CLI step unless its report is there; {"code", "seconds", "report"} (kept in step.json)."""
    record = folder / f"{name}.json"
    if record.exists() and not rerun:
        return json.loads(record.read_text())
    code, seconds = run(args, folder / f"{name}.log")
    report_path = folder / name / "report.json"
    report = json.loads(report_path.read_text()) if report_path.exists() else None
    out = {"code": code, "seconds": round(seconds, 1), "report": report}
    record.write_text(json.dumps(out))
    return out


def verdicts(report: dict | None) -> dict[str, str]:
    asset = (report or {}).get("assets", [{}])[0]
    return {t["name"]: t["status"] for t in asset.get("tests", [])}


def failing_rows(report: dict | None) -> list[tuple[str, str, str]]:
    """(test, joint, reason) of every failing driven-joint row."""
    asset = (report or {}).get("assets", [{}])[0]
    return [(t["name"], r["joint"], r.get("reason", "")) for t in asset.get("tests", []) if t["name"] in DRIVEN
            for r in t.get("joints", []) if r["status"] in FAILING]


def road(robot: dict, work: Path, rerun: bool) -> dict:
    asset = robot["asset"]
    folder = work / robot["id"]
    folder.mkdir(parents=True, exist_ok=True)
    before = step("validate", ["validate", asset, "--no-video", "--no-html", "--out", str(folder / "validate")], folder,
                  rerun)
    fixed = step("fix", ["fix", asset, "--add-drives", "-j", "1", "--quiet", "--out", str(folder / "fix")], folder, rerun)
    block = ((fixed["report"] or {}).get("assets", [{}])[0]).get("fix") or {}
    after = None
    if block.get("status") == "accepted" and block.get("composed"):
        after = step("fixed", ["validate", block["composed"], "--no-video", "--no-html", "--out", str(folder / "fixed")],
                     folder, rerun)
    unnamed, named_rows = [], []
    for test, joint, reason in failing_rows(after["report"] if after else None):
        cause = measured_cause(block, joint, test, references(asset))
        (named_rows if cause else unnamed).append((test, joint, cause, reason))
    return {"robot": robot, "before": before, "fix": fixed, "block": block, "after": after, "unnamed": unnamed,
            "named_rows": named_rows}


def references(asset: str) -> dict[str, str]:
    """Mimic follower name -> its reference's name (a follower's row is named when its reference is)."""
    from omni.simready.physics_validator.core.usd import read_asset

    joints = read_asset(asset).joints
    return {j.name: joints[j.mimic_reference].name for j in joints.values()
            if j.mimic_reference and j.mimic_reference in joints}


def measured_cause(block: dict, joint: str, test: str, refs: dict[str, str]) -> str:
    """The cause `fix` measured for a failing row's joint (the same rule its acceptance follows: fix.outcome's
    MEASURED_CAUSES, on the joint or on a follower's reference), '' when none: the row is not named."""
    from omni.simready.physics_validator.fix.outcome import MEASURED_CAUSES

    for who in (joint, refs.get(joint)):
        found = [n for n in block.get("not_fixable", []) if n.get("joint") == who and n.get("cause") in MEASURED_CAUSES]
        found.sort(key=lambda n: n.get("test") != test)  # this test's finding first
        if found:
            return found[0]["cause"] + (f" (of its reference {who})" if who != joint else "")
    return ""


def headline(step_result: dict | None) -> str:
    if not step_result or not step_result.get("report"):
        return "—"
    asset = step_result["report"]["assets"][0]
    tested = sum(1 for t in asset["tests"] if t["status"] in ("PASS", "WARN", "FAIL"))
    return f"{asset.get('verdict') or '?'} ({tested} tested), exit {step_result['code']}"


def drives(block: dict) -> list[str]:
    """Per joint: 'joint1: K 1180 N·m/rad, D 38 N·m·s/rad, maxForce 30 of 30 N·m rated' (SI, per radian)."""
    out = []
    for joint in block.get("joints", []):
        changes = {c["attribute"].rsplit(":", 1)[-1]: c for c in joint.get("changes", [])}
        parts = []
        angular = "°" in changes.get("stiffness", {}).get("unit", "°")
        for name, symbol, unit in (("stiffness", "K", "N·m/rad" if angular else "N/m"),
                                   ("damping", "D", "N·m·s/rad" if angular else "N·s/m")):
            if name in changes and isinstance(changes[name]["after"], (int, float)):
                parts.append(f"{symbol} {changes[name]['after'] * (DEG if angular else 1.0):.4g} {unit}")
        if "maxForce" in changes and isinstance(changes["maxForce"]["after"], (int, float)):
            rating = joint.get("measured", {}).get("rating", math.inf)
            rated = f" of {rating:.4g} rated" if isinstance(rating, (int, float)) and math.isfinite(rating) else " (assumed)"
            parts.append(f"maxForce {changes['maxForce']['after']:.4g} {'N·m' if angular else 'N'}{rated}")
        if "armature" in changes:
            parts.append(f"armature {changes['armature']['after']:.4g}")
        if parts:
            out.append(f"{joint['joint']}: {', '.join(parts)}")
    return out


def markdown(results: list[dict]) -> str:
    lines = ["# The robot author's road on robots converted from PyPI packages", "",
             "Generated by `python tools/robot_road.py ROBOTS_DIR --md docs/fix-robots.md` over the robots "
             "`bash tools/convert_robots.sh ROBOTS_DIR` converts with NVIDIA's urdf-usd-converter (none of them in "
             "the shared assets). Each step is the command a user runs; physx engine. See [fix.md](fix.md).", "",
             "| robot | source | DOF | as imported | `fix --add-drives` | the `.fixed` wrapper | failing driven-joint rows |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        robot, block = r["robot"], r["block"]
        after = verdicts(r["after"]["report"]) if r["after"] else {}
        passing = sum(1 for t in DRIVEN if after.get(t) == "PASS")
        judged = sum(1 for t in DRIVEN if after.get(t) not in (None, "NOT_APPLICABLE"))
        rows = (f"{len(r['named_rows'])} named ({', '.join(sorted({c.split(' (')[0] for _, _, c, _ in r['named_rows']}))})"
                if r["named_rows"] else "0") + (f"; **{len(r['unnamed'])} unnamed**" if r["unnamed"] else "")
        fixed = (f"{headline(r['after'])}: {passing} of {judged} driven-joint tests PASS" if r["after"] else "—")
        lines.append(f"| {robot['id']} | {robot['package']} | {robot['stats'].get('dof', '?')} | {headline(r['before'])} | "
                     f"{block.get('status', 'error')} in {r['fix']['seconds']:.0f} s, exit {r['fix']['code']} | {fixed} | "
                     f"{rows} |")
    for r in results:
        block = r["block"]
        lines += ["", f"## {r['robot']['id']} ({r['robot']['category']})", "", f"fix: {block.get('summary', '')}", ""]
        lines += [f"- {d}" for d in drives(block)]
        if r["after"]:
            after = verdicts(r["after"]["report"])
            lines += ["", "With the layer: " + ", ".join(f"{t} {after[t]}" for t in after), ""]
        for test, joint, cause, reason in r["named_rows"] + [(t, j, "", why) for t, j, _, why in r["unnamed"]]:
            plain = cause.split(" (of its reference ")[0]
            ref = cause.split(" (of its reference ")[1].rstrip(")") if " (of its reference " in cause else joint
            who = next((n for n in block.get("not_fixable", []) if n.get("joint") == ref and n.get("cause") == plain), {})
            lines.append(f"- {joint} ({test}): {cause or '**not named**'}: {who.get('why') or reason}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("robots", help="the folder tools/convert_robots.sh built (with robots.json)")
    parser.add_argument("--work", default="robot-road", help="where each step's output goes (default ./robot-road)")
    parser.add_argument("--only", default="", help="comma-separated robot ids")
    parser.add_argument("--rerun", action="store_true", help="run steps whose report is already there again")
    parser.add_argument("--md", default="", help="write the tables there (e.g. docs/fix-robots.md)")
    args = parser.parse_args(argv)
    listing = json.loads((Path(args.robots) / "robots.json").read_text())
    only = {x for x in args.only.split(",") if x}
    robots = [r for r in listing if r.get("status") == "ok" and (not only or r["id"] in only)]
    results = []
    for robot in robots:
        print(f"{robot['id']}: validate, fix --add-drives, validate the fixed file ...", flush=True)
        results.append(road(robot, Path(args.work).resolve(), args.rerun))
        r = results[-1]
        print(f"    as imported {headline(r['before'])}; fix {r['block'].get('status')}; fixed {headline(r['after'])}; "
              f"{len(r['named_rows'])} named failing rows, {len(r['unnamed'])} unnamed", flush=True)
    text = markdown(results)
    if args.md:
        Path(args.md).write_text(text, encoding="utf-8")
    print(text.split("\n## ")[0])
    return 1 if any(r["unnamed"] for r in results if r["block"].get("status") == "accepted") else 0


if __name__ == "__main__":
    sys.exit(main())
