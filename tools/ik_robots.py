"""jacobian_ik on converted robots: the end effector it finds (and which rule chose it), the verdict, and the numbers
that decided it (issue 40 item 7).

    python tools/ik_robots.py ROBOTS_DIR... [--work DIR] [--only a,b] [--rerun] [--md docs/tests/jacobian_ik.md] [--merge]

ROBOTS_DIR is a folder `bash tools/convert_robots.sh` or `tools/import_robots.py` built (its robots.json lists each
robot). Beside those, the ViperX 300 s of the ALOHA (every link `right/...`): converted here from the MJCF in
robosuite-models==1.0.0 (`robosuite_models/assets/robots/vx300s/robot.xml`) with the converters' venv
(ROBOTS_DIR/_build/venv, as convert_robots.py runs mujoco-usd-converter) into --converted/vx300s/ when it is not there.
Each step is the command a user runs, as a subprocess, its output kept under WORK/<id>/ (not run again unless --rerun):

1. `simready-physics validate ASSET --tests jacobian_ik`: as imported (most arms carry no drives: CHAIN_NOT_DRIVEN,
   and the end effector it found);
2. `simready-physics fix ASSET --add-drives -j 1` (as tools/robot_road.py runs it), and `simready-physics validate
   ASSET.fixed.usda --tests jacobian_ik` on the layer it keeps;
3. where that leaves jacobian_ik unjudged (a SKIP, or no layer kept): `fix ASSET --add-drives --tests jacobian_ik`, the
   layer proved by this test alone, validated the same way; when fix keeps none, its first round's layer (the first
   drives, maxForce at the asset's own ratings) is judged, and the table says so.

Prints one line per robot and writes the table between the `ik_robots` markers of --md (with --merge, the rows of
robots this run did not run are kept as the page had them). Exits 1 when a fixed arm's verdict is neither PASS nor a
FAIL whose rows name a joint (the acceptance of issue 40 item 7), else 0.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

CLI = [sys.executable, "-m", "omni.simready.physics_validator.cli"]
BEGIN, END = "<!-- ik_robots: begin -->", "<!-- ik_robots: end -->"
VX300S = dict(id="vx300s", category="arm, 6-DOF (Trossen ViperX 300 s of the ALOHA; MJCF, every link right/...)",
              package="robosuite-models==1.0.0", path="robosuite-models-1.0.0/robosuite_models/assets/robots/vx300s/robot.xml",
              license="MIT (robosuite-models LICENSE)")


def robots(dirs: list[Path], converted: Path) -> list[dict]:
    out = []
    for folder in dirs:
        listing = folder / "robots.json"
        if listing.exists():
            out += [r for r in json.loads(listing.read_text()) if r.get("status", "ok") == "ok" and r.get("asset")]
    if not any(r["id"] == VX300S["id"] for r in out):
        vx = vx300s(dirs, converted)
        if vx is not None:
            out.append(vx)
    return out


def vx300s(dirs: list[Path], converted: Path) -> dict | None:
    """The ViperX, converted with mujoco-usd-converter from the MJCF in the robosuite-models wheel the robots' build
    unpacked (ROBOTS_DIR/_build/src), or None when neither the output nor the converter is there."""
    target = converted / "vx300s"
    found = sorted(target.glob("*.usda")) if target.exists() else []
    build = next((d / "_build" for d in dirs if (d / "_build" / "src" / VX300S["path"]).exists()), None)
    command = None
    if build is not None:
        command = [str(build / "venv" / "bin" / "mujoco_usd_converter"), str(build / "src" / VX300S["path"]), str(target)]
    if not found and command is not None and Path(command[0]).exists():
        subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        found = sorted(target.glob("*.usda"))
    if not found:
        return None
    shown = command or ["mujoco_usd_converter", VX300S["path"], str(target)]
    return {**VX300S, "asset": str(found[0]), "command": " ".join(shown)}


def step(name: str, args: list[str], folder: Path, rerun: bool) -> dict:
    """One CLI step unless its record is there: {"code", "seconds", "report"}."""
    record = folder / f"{name}.json"
    if record.exists() and not rerun:
        return json.loads(record.read_text())
    folder.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with open(folder / f"{name}.log", "w", encoding="utf-8") as log:
        code = subprocess.run([*CLI, *args], stdout=log, stderr=subprocess.STDOUT, cwd=folder).returncode
    report_path = folder / name / "report.json"
    out = {"code": code, "seconds": round(time.monotonic() - started, 1),
           "report": json.loads(report_path.read_text()) if report_path.exists() else None}
    record.write_text(json.dumps(out))
    return out


def ik_result(step_result: dict | None) -> dict | None:
    asset = ((step_result or {}).get("report") or {}).get("assets", [{}])[0]
    return next((t for t in asset.get("tests", []) if t["name"] == "jacobian_ik"), None)


def road(robot: dict, work: Path, rerun: bool) -> dict:
    """As imported; with the road's layer (`fix --add-drives`); where that layer leaves jacobian_ik unjudged (a SKIP,
    or no layer), with the layer `fix --add-drives --tests jacobian_ik` proves by this test alone, or when fix keeps
    none, its first round's layer (the first drives at the asset's own ratings, which fix then rejected)."""
    folder = work / robot["id"]
    asset = robot["asset"]
    before = step("imported", ["validate", asset, "--tests", "jacobian_ik", "--no-video", "--no-html",
                               "--out", str(folder / "imported")], folder, rerun)
    out = {"robot": robot, "before": ik_result(before), "layers": []}
    for name, flags in (("fix", []), ("fix_ik", ["--tests", "jacobian_ik"])):
        fixed = step(name, ["fix", asset, "--add-drives", *flags, "-j", "1", "--quiet", "--out", str(folder / name)],
                     folder, rerun)
        block = ((fixed["report"] or {}).get("assets", [{}])[0]).get("fix") or {}
        command = " ".join(["fix --add-drives", *flags])
        layer, label = block.get("composed"), f"`{command}`: {block.get('status', 'error')}"
        if not layer:
            first = sorted((folder / name / ".fix").glob("*/round1/*.fixed.usda"))
            layer, label = (str(first[0]), label + ", its round 1 layer") if first else (None, label)
        result = None
        if layer:
            result = ik_result(step(f"{name}_validated", ["validate", layer, "--tests", "jacobian_ik", "--no-video",
                                                          "--no-html", "--out", str(folder / f"{name}_validated")],
                                    folder, rerun))
        out["layers"].append((label, result))
        if result is not None and result["status"] in ("PASS", "FAIL", "NOT_APPLICABLE"):
            break
    out["after"] = next((r for _, r in reversed(out["layers"]) if r is not None), None)
    return out


def numbers(result: dict | None) -> str:
    """The deciding numbers of a verdict, for people."""
    if result is None:
        return "—"
    m = result.get("metrics", {})
    if "pass_rate" in m:
        worst = (f"; worst {m['max_position_error'] * 100:.2f} cm, {m['max_orientation_error'] * 57.29578:.1f}°"
                 if "max_position_error" in m else "")
        return (f"{m.get('targets_reached', 0)}/{m.get('targets', 0)} reached (pass rate {m['pass_rate']:.0%}, "
                f"min 40 %){worst}; {m.get('unreachable_reached', 0)} beyond reach read as reached")
    return result.get("reason", "")[:160]


def named_joints(result: dict | None) -> list[str]:
    return [r["joint"] for r in (result or {}).get("joints", []) if r.get("status") == "FAIL"]


def cell(result: dict | None) -> str:
    if result is None:
        return "—"
    return f"{result['status']} `{result.get('code', '')}`"


def short(path: str | None) -> str:
    return (path or "—").rsplit("/", 1)[-1]


def acceptable(r: dict) -> bool:
    """An arm: PASS, or a FAIL whose rows name the joint (a gripper, by the robot list's category, is no arm)."""
    after = r["after"]
    if r["robot"].get("category", "").startswith("gripper"):
        return True
    if after is None:
        return False
    return after["status"] in ("PASS", "NOT_APPLICABLE") or (after["status"] == "FAIL" and bool(named_joints(after)))


def markdown(results: list[dict]) -> str:
    lines = [BEGIN, "", "Generated by `python tools/ik_robots.py ROBOTS_DIR... --md docs/tests/jacobian_ik.md` (physx; "
             "the robots of [fix-robots.md](../fix-robots.md) and the ViperX 300 s; none of them in the shared assets). "
             "The end effector comes from the articulation's tree, its couplings and sites, never a link's name. Each "
             "robot as imported (drive-less: the chain cannot be commanded), then with the layer `fix` proposes: the "
             "robot road's (`fix --add-drives`), and where that leaves jacobian_ik unjudged the one proved by "
             "jacobian_ik alone (`--tests jacobian_ik`), or, when fix keeps none, its first round's.", "",
             "| robot | source | end effector | chosen because | as imported | layer | with the layer | deciding numbers |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        robot, shown = r["robot"], r["after"] or r["before"] or {}
        m = shown.get("metrics", {})
        failing = named_joints(r["after"])
        after = cell(r["after"]) + (f", rows name {', '.join(failing)}" if failing else "")
        label = next((lbl for lbl, res in reversed(r["layers"]) if res is not None), r["layers"][0][0] if r["layers"] else "—")
        lines.append(f"| {robot['id']} | {robot['package']} | {short(m.get('end_effector'))} | "
                     f"{m.get('end_effector_source', '—')} | {cell(r['before'])} | {label} | {after} | "
                     f"{numbers(r['after'] or r['before'])} |")
    command = next((r["robot"].get("command", "") for r in results if r["robot"]["id"] == "vx300s"), "")
    lines += ["", f"The ViperX was converted with `{command}`." if command else "", "", END]
    return "\n".join(lines)


def merged(text: str, old_page: str) -> str:
    """`text` (this run's table) with the rows of `old_page`'s table for robots this run did not run, in the old
    order, and the old ViperX sentence when this run did not convert it: a table regenerated for some robots keeps the
    others' measured rows as they were."""
    def parts(block: str) -> tuple[list[str], dict[str, str], list[str]]:
        lines = block.splitlines()
        start = next(i for i, ln in enumerate(lines) if ln.startswith("| robot |")) + 2
        end = next((i for i in range(start, len(lines)) if not lines[i].startswith("| ")), len(lines))
        return lines[:start], {ln.split("|")[1].strip(): ln for ln in lines[start:end]}, lines[end:]

    if BEGIN not in old_page or END not in old_page:
        return text
    head, new_rows, new_tail = parts(text)
    _, old_rows, old_tail = parts(old_page[old_page.index(BEGIN):old_page.index(END) + len(END)])
    order = list(old_rows) + [r for r in new_rows if r not in old_rows]
    tail = new_tail if any(ln.startswith("The ViperX was converted") for ln in new_tail) else old_tail
    return "\n".join(head + [new_rows.get(r) or old_rows[r] for r in order] + tail)


def write_md(path: Path, text: str, merge: bool = False) -> None:
    page = path.read_text(encoding="utf-8") if path.exists() else ""
    if merge:
        text = merged(text, page)
    if BEGIN in page and END in page:
        page = page[:page.index(BEGIN)] + text + page[page.index(END) + len(END):]
    else:
        page = page.rstrip("\n") + "\n\n## On converted robots\n" + text + "\n"
    path.write_text(page, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("robots", nargs="+", help="folders tools/convert_robots.sh or tools/import_robots.py built")
    parser.add_argument("--converted", default="/work/converted", help="where the ViperX is converted to (default "
                                                                       "/work/converted)")
    parser.add_argument("--work", default="ik-robots", help="where each step's output goes (default ./ik-robots)")
    parser.add_argument("--only", default="", help="comma-separated robot ids")
    parser.add_argument("--rerun", action="store_true", help="run steps whose record is already there again")
    parser.add_argument("--md", help="write the table between the ik_robots markers of this page")
    parser.add_argument("--merge", action="store_true",
                        help="keep the --md table's rows of robots this run does not run (with --only)")
    args = parser.parse_args(argv)
    dirs = [Path(d).resolve() for d in args.robots]
    only = {s for s in args.only.split(",") if s}
    results = []
    for robot in robots(dirs, Path(args.converted)):
        if only and robot["id"] not in only:
            continue
        print(f"{robot['id']}: validate --tests jacobian_ik, fix --add-drives, validate the fixed file ...", flush=True)
        r = road(robot, Path(args.work).resolve(), args.rerun)
        shown = r["after"] or r["before"] or {}
        layers = "; ".join(f"{label} -> {cell(res)}" for label, res in r["layers"])
        print(f"    end effector {short(shown.get('metrics', {}).get('end_effector'))} "
              f"({shown.get('metrics', {}).get('end_effector_source', '—')}); as imported {cell(r['before'])}; {layers}: "
              f"{numbers(r['after'] or r['before'])}", flush=True)
        results.append(r)
    if args.md:
        write_md(Path(args.md), markdown(results), args.merge)
    return 0 if all(acceptable(r) for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
