"""The robot author's road on converted robots (issues 37, 41): as imported -> `fix --add-drives` -> the `.fixed` wrapper.

    python tools/robot_road.py ROBOTS_DIR [ROBOTS_DIR ...] [--work DIR] [--only z1,xarm7] [--rerun] [--skip-fix]
                               [--md docs/fix-robots.md]

A ROBOTS_DIR is what `bash tools/convert_robots.sh ROBOTS_DIR` builds (issue 37's robots, converted by calling NVIDIA's
converters directly) or what `python tools/import_robots.py ROBOTS_DIR` builds (issue 41's, converted with
`simready-physics import`); its robots.json lists each robot: id, source package, asset. Each step is the command a
user runs, as a subprocess, its output kept under WORK/<id>/ (a step whose report exists is not run again unless
--rerun; --skip-fix runs the as-imported validation only):

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
KEPT = ("accepted", "partially_accepted")  # fix statuses that write a layer and its `.fixed` wrapper
DEG = 180.0 / math.pi
FILTER_ATTR = "physics:filteredPairs"  # a fix-block row for a body pair the layer filters (fix/overlaps.py)


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


def road(robot: dict, work: Path, rerun: bool, skip_fix: bool = False) -> dict:
    asset = robot["asset"]
    folder = work / robot["id"]
    folder.mkdir(parents=True, exist_ok=True)
    before = step("validate", ["validate", asset, "--no-video", "--no-html", "--out", str(folder / "validate")], folder,
                  rerun)
    if skip_fix and not (folder / "fix.json").exists():
        return {"robot": robot, "before": before, "fix": None, "block": {}, "after": None, "unnamed": [], "named_rows": []}
    fixed = step("fix", ["fix", asset, "--add-drives", "-j", "1", "--quiet", "--out", str(folder / "fix")], folder, rerun)
    block = ((fixed["report"] or {}).get("assets", [{}])[0]).get("fix") or {}
    after = None
    if block.get("status") in KEPT and block.get("composed"):
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
    """Per joint: 'joint1: K 1180 N·m/rad, D 38 N·m·s/rad, maxForce 30 of 30 N·m rated' (SI, per radian); per body pair
    the layer filters (fix/overlaps.py), which two."""
    out = []
    for joint in block.get("joints", []):
        pairs = [c["after"] for c in joint.get("changes", []) if c["attribute"] == FILTER_ATTR]
        if pairs:
            out.append(f"{joint['joint']}: its collisions with {', '.join(map(str, pairs))} filtered (they overlap at rest)")
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


def fix_cell(r: dict) -> str:
    """`fix --add-drives`: its status and time, the joints its layer keeps and the joints it names with a cause."""
    if not r["fix"]:
        return "not run yet"
    block = r["block"]
    rows = [j for j in block.get("joints", []) if j.get("changes")] if block.get("status") in KEPT else []
    filters = [j for j in rows if all(c["attribute"] == FILTER_ATTR for c in j["changes"])]
    # a joint the layer only respells (an attribute carried to its per-axis spelling, same value) is not one it keeps
    kept = sum(1 for j in rows if j not in filters and any(c.get("before") != c.get("after") for c in j["changes"]))
    pairs = f", {len(filters)} rest-overlap pair(s) filtered" if filters else ""
    named = len({n.get("joint") for n in block.get("not_fixable", []) if n.get("joint")})
    return (f"{block.get('status', 'error')} in {r['fix']['seconds']:.0f} s: {kept} joint(s) kept{pairs}, {named} named; "
            f"exit {r['fix']['code']}")


def markdown(results: list[dict]) -> str:
    lines = ["# The robot author's road on robots converted from PyPI packages", "",
             "Generated by `python tools/robot_road.py ROBOTS_DIR [ROBOTS_DIR ...] --md docs/fix-robots.md` over the "
             "robots `bash tools/convert_robots.sh ROBOTS_DIR` converts by calling NVIDIA's converters (issue 37's "
             "nine) and those `python tools/import_robots.py ROBOTS_DIR` imports with `simready-physics import` (issue "
             "41's, marked *imported*; none of them in the shared assets or on any page before). Each step is the "
             "command a user runs; physx engine. See [import.md](import.md) and [fix.md](fix.md).", "",
             "| robot | source | DOF | as imported | `fix --add-drives` | the `.fixed` wrapper | failing driven-joint rows |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        robot = r["robot"]
        after = verdicts(r["after"]["report"]) if r["after"] else {}
        passing = sum(1 for t in DRIVEN if after.get(t) == "PASS")
        judged = sum(1 for t in DRIVEN if after.get(t) not in (None, "NOT_APPLICABLE"))
        rows = (f"{len(r['named_rows'])} named ({', '.join(sorted({c.split(' (')[0] for _, _, c, _ in r['named_rows']}))})"
                if r["named_rows"] else "0") + (f"; **{len(r['unnamed'])} unnamed**" if r["unnamed"] else "")
        fixed = (f"{headline(r['after'])}: {passing} of {judged} driven-joint tests PASS" if r["after"] else "—")
        name = robot["id"] + (" *imported*" if robot.get("command", "").startswith("simready-physics import") else "")
        lines.append(f"| {name} | {robot['package']} | {robot['stats'].get('dof', '?')} | {headline(r['before'])} | "
                     f"{fix_cell(r)} | {fixed} | {rows} |")
    for r in results:
        block, robot = r["block"], r["robot"]
        lines += ["", f"## {robot['id']} ({robot['category']})", ""]
        if robot.get("command", "").startswith("simready-physics import"):
            arrival = robot.get("arrival", {})
            lines += [f"`{robot['command']}` (source: `{robot['path']}` in {robot['package']}; {robot.get('license', '')}): "
                      f"{arrival.get('joints_found')} of {arrival.get('joints_expected')} joints and "
                      f"{arrival.get('mesh_links_expected', 0) - len(arrival.get('missing_meshes', []))} of "
                      f"{arrival.get('mesh_links_expected')} links' meshes arrived, {arrival.get('bodies')} bodies, "
                      f"{arrival.get('mass_kg', 0):.3g} kg authored ({arrival.get('massless_bodies', 0)} without mass)", ""]
        lines += [f"As imported: {', '.join(f'{t} {v}' for t, v in verdicts(r['before']['report']).items())}", ""]
        lines += [f"fix: {block.get('summary', '') if r['fix'] else 'not run yet'}", ""]
        lines += [f"- {d}" for d in drives(block)]
        if r["after"]:
            after = verdicts(r["after"]["report"])
            lines += ["", "With the layer: " + ", ".join(f"{t} {after[t]}" for t in after), ""]
        for test, joint, cause, reason in r["named_rows"] + [(t, j, "", why) for t, j, _, why in r["unnamed"]]:
            plain = cause.split(" (of its reference ")[0]
            ref = cause.split(" (of its reference ")[1].rstrip(")") if " (of its reference " in cause else joint
            who = next((n for n in block.get("not_fixable", []) if n.get("joint") == ref and n.get("cause") == plain), {})
            lines.append(f"- {joint} ({test}): {cause or '**not named**'}: {who.get('why') or reason}")
        shown = {(joint, test) for test, joint, _, _ in r["named_rows"]}
        others = [n for n in block.get("not_fixable", []) if (n.get("joint"), n.get("test")) not in shown]
        if others:
            lines += ["", "Also named by fix (joints left as authored, findings on rows that pass with the layer):", ""]
            lines += [f"- {n.get('joint') or '(asset)'}" + (f" ({n['test']})" if n.get("test") else "")
                      + f": {n.get('cause')}: {n.get('why', '')}" for n in others]
    return "\n".join(lines) + "\n"


def merged(text: str, old: str) -> str:
    """`text` (this run's page) with the rows and sections of `old` (the page as it was) for robots this run did not
    run, in the old page's order: a page regenerated for some robots keeps the others' measured rows as they were."""
    def rows_and_sections(page: str) -> tuple[list[str], dict[str, str], dict[str, str]]:
        head, _, body = page.partition("\n## ")
        lines = head.splitlines()
        start = next(i for i, ln in enumerate(lines) if ln.startswith("| robot |")) + 2
        rows = {ln.split("|")[1].split()[0]: ln for ln in lines[start:] if ln.startswith("| ")}
        # each section as written, its blank lines included: the sections kept read byte for byte as they did
        sections = {chunk.split(" ", 1)[0]: "## " + chunk for chunk in body.split("\n## ") if chunk}
        return lines[:start], rows, sections

    head, new_rows, new_sections = rows_and_sections(text)
    _, old_rows, old_sections = rows_and_sections(old)
    order = list(old_rows) + [r for r in new_rows if r not in old_rows]
    rows = [new_rows.get(r) or old_rows[r] for r in order]
    sections = [new_sections.get(r) or old_sections.get(r, "") for r in order]
    return "\n".join(head + rows) + "\n\n" + "\n".join(x if x.endswith("\n") else x + "\n" for x in sections if x)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("robots", nargs="+", help="folders tools/convert_robots.sh or tools/import_robots.py built")
    parser.add_argument("--work", default="robot-road", help="where each step's output goes (default ./robot-road)")
    parser.add_argument("--only", default="", help="comma-separated robot ids")
    parser.add_argument("--rerun", action="store_true", help="run steps whose report is already there again")
    parser.add_argument("--skip-fix", action="store_true", help="validate as imported only (fix steps already run are read)")
    parser.add_argument("--md", default="", help="write the tables there (e.g. docs/fix-robots.md)")
    parser.add_argument("--merge", action="store_true",
                        help="keep the --md page's rows of robots this run does not run (with --only)")
    args = parser.parse_args(argv)
    listing = [r for folder in args.robots for r in json.loads((Path(folder) / "robots.json").read_text())]
    only = {x for x in args.only.split(",") if x}
    robots = [r for r in listing if r.get("status") in ("ok", "incomplete") and (not only or r["id"] in only)]
    results = []
    for robot in robots:
        print(f"{robot['id']}: validate{'' if args.skip_fix else ', fix --add-drives, validate the fixed file'} ...",
              flush=True)
        results.append(road(robot, Path(args.work).resolve(), args.rerun, args.skip_fix))
        r = results[-1]
        print(f"    as imported {headline(r['before'])}; fix {r['block'].get('status')}; fixed {headline(r['after'])}; "
              f"{len(r['named_rows'])} named failing rows, {len(r['unnamed'])} unnamed", flush=True)
    text = markdown(results)
    if args.md:
        if args.merge and Path(args.md).exists():
            text = merged(text, Path(args.md).read_text(encoding="utf-8"))
        Path(args.md).write_text(text, encoding="utf-8")
    print(text.split("\n## ")[0])
    return 1 if any(r["unnamed"] for r in results if r["block"].get("status") in KEPT) else 0


if __name__ == "__main__":
    sys.exit(main())
