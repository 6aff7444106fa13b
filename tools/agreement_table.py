"""Agreement table (issue 12): the same inputs validated on `physx` (ovphysx) and `sapien`, all five tests.

    python tools/agreement_table.py [--work DIR] [--shared DIR] [--corpus DIR] [--jobs 1]
                                    [--sets crate,shared,overlays,corpus,corpus_overlays]
                                    [--rerun] [--table-only] [--md docs/agreement.md] [--json docs/agreement.json]

Inputs (sets), each optional (a set whose inputs are missing is skipped with a message):
- crate: the bundled example asset;
- shared: every asset under --shared (default `../shared/assets` beside the checkout, as tests/fixtures uses), as
  converted, floating-base variants included;
- overlays: a drive overlay (tools/drive_overlay.py: DriveAPI gains sized from the load, velocity limits from
  `newton:velocityLimit`, a new layer sublayering the asset) of every shared asset with a revolute or prismatic
  joint to drive, written to WORK/overlays/<asset>_driven.usda;
- corpus: every `ok` model of the 93-model corpus, read from --corpus/manifest.json (default WORK/corpus; build it
  with shared/tools/asset-corpus/build_corpus.sh WORK/corpus);
- corpus_overlays: the same generic drive overlay of every corpus model with a joint to drive, written to
  WORK/corpus_overlays/, for models with at most --max-dofs (24) driven joints (the joint tests' cost grows with
  joints x step cost: the 50-70-joint MJCF bodies take many minutes each; the table lists what was left out).
  Overlays are written once; `--rerun` writes them again.

Each set is validated once with the CLI's own comparison (`simready-physics validate PATHS --compare
physx,sapien --no-video --no-html`, which pairs the verdicts through `core/comparison.py`) into WORK/agreement/<set>/
(physx/report.json, sapien/report.json, compare.json, run.log, run.json). A set whose compare.json exists is not run
again unless `--rerun`; `--table-only` only rebuilds the table from what WORK holds.

The table: per set and test, agree / disagree counts and the verdict pairs; wall time per simulated second of each
engine (the test wall times its report records); for every disagreement both verdicts with their deciding metrics
(core/comparison.DECIDING_METRICS), the joints whose verdicts differ with the measured values that decided them, and
a cause from docs/engine-divergences.md ("physx vs sapien"):
- attributed from the asset itself (read with pxr: mimic joints, joint friction, armature, a velocity limit
  spelled only `newton:velocityLimit`, static colliders intersecting a body jointed to the world) and from the
  rows (a velocity_limit FAIL on physx whose displacement rate stays within the cap: the reported first-step
  velocity spike), or
- `KNOWN` below: disagreements investigated by hand, with the measurement behind them.
A disagreement with neither is listed as "unexplained" (the tool exits 1), so a new one cannot slip through.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CRATE = ROOT / "exts/omni.simready.physics_validator/data/examples/crate.usda"
ENGINES = ("physx", "sapien")
TESTS = ("ground_drop", "velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")
SET_ORDER = ("crate", "shared", "overlays", "corpus", "corpus_overlays")
VELOCITY_TOLERANCE = 1.05  # velocity_limit's default max_velocity_ratio

# Causes (ids of docs/engine-divergences.md, "physx vs sapien").
CAUSES = {
    "S1": "mimic joints (simulated by ovphysx, not created by sapien)",
    "S2": "velocity cap: first-step reported velocity above the cap after a saturated target jump (TGS, 1 velocity iteration)",
    "S3": "joint friction (newton:friction / friction efforts; viscous newton:damping, which freezes light leaf joints: applied "
          "by ovphysx, 0 in sapien)",
    "S4": "armature (applied by ovphysx, ignored by sapien)",
    "S5": "static colliders in contact with a body jointed to the world (ovphysx collides them, sapien does not)",
    "S7": "velocity limit spelled only newton:velocityLimit (honoured by ovphysx, ignored by sapien)",
    "S12": "a velocity cap authored as 0 (ovphysx holds the joint still; the validator reads no limit, sapien runs it free)",
}
CAUSES.update({  # further causes measured by hand (KNOWN); their ids continue docs/engine-divergences.md
    "S10": "a verdict at the edge of its threshold: the two PhysX versions land on either side of it",
    "S11": "an unlimited revolute joint: PhysX 5.12 bounds its drive target to [-2 pi, 2 pi] (handled by velocity_limit's chase)",
    "S13": "grazing self-contact of non-adjacent links: exact hulls (sapien) touch earlier than PhysX 5.12's cooked hulls",
    "S14": "a contact kick on sapien: a link wedged between its limit and another link jumps in one step",
    "S15": "sapien's position outruns its velocity cap under a far pull (PhysX 5.3, 16 position iterations)",
    "S16": "sapien loses friction on a speculative first contact",
    "S17": "unstable from load on both engines; only how the instability shows differs",
    "S18": "a kinematic body inside an articulation (unsupported by PhysX): ovphysx still drives the joints, sapien holds them",
})

# Disagreements investigated by hand: (asset file stem, test) -> (cause, the measurement behind it).
_UR5 = ("S13", "shoulder_lift_joint's +30 deg step drives upper_arm_link into base_link: sapien's hulls touch from 26.2 deg, "
               "physx's from 29.3 deg; sapien at rest k x error 452 N m > maxForce 150 N m (a contact holds it); "
               "with the pair filtered both PASS (final error 0.0076 rad)")
KNOWN: dict[tuple[str, str], tuple[str, str]] = {
    ("erd_ur5_driven", "drive_gain_validation"): _UR5,
    ("erd_ur5_gripper_driven", "drive_gain_validation"): _UR5,
    ("dmc_suite_acrobot_driven", "drive_gain_validation"): (
        "S10", "both overshoot ~1090 %; largest bounding-box ratio 9.94 (physx) vs 10.52 (sapien) against "
               "bbox_explode_ratio 10"),
    ("pb_a1_driven", "velocity_limit"): (
        "S14", "FR thigh wedged between its limit (0.803 rad) and the trunk on sapien, kicked 0.25 rad in one step "
               "(impulse 5060 N s): position rate 61 rad/s vs reported 22 rad/s; trunk/thighs filtered: PASS on both"),
    ("pb_r2d2_driven", "velocity_limit"): (
        "S15", "gripper_extension (cap 0.5 m/s): position rate 0.541 m/s on sapien vs 0.504 on physx, no contact; "
               "4 / 16 / 64 position iterations: 0.644 / 0.541 / 0.511 m/s"),
    ("cube_cylinder", "ground_drop"): (
        "S16", "the tilted cylinder hits the static cube on its rim: sideways speed 1.75 m/s on physx (rolls off), "
               "0.00 on sapien (stays on the cube); rigid-impact estimate up to 2.0 m/s; frictionless variant: both stay"),
    ("newton_test_actuator_test_driven", "drive_gain_validation"): (
        "S18", "Base is kinematic inside the articulation: ovphysx logs 'Articulations with kinematic bodies are not "
               "supported' and still moves Joint1 to a 0.5 rad target in 1 s; sapien ('simulated as a free kinematic "
               "body') holds Joint1 and Joint2 at 0"),
    ("newton_test_humanoid_mjc_driven", "drive_gain_validation"): (
        "S17", "physx NaN at step 18 of the settle; sapien joints at +-4 pi (limits +-0.87 rad) within 2 steps, bounds "
               "within 1.28 x"),
}


# -- inputs -----------------------------------------------------------------------------------------------
def shared_sources(folder: Path) -> dict[str, Path]:
    """Asset id -> top file of each shared asset (floating-base variants left out: an overlay pins the base anyway)."""
    from omni.simready.physics_validator.core.usd import find_usd_files

    out: dict[str, Path] = {}
    for path in find_usd_files(folder):
        if path.name == "floating_base.usda":
            continue
        rel = path.relative_to(folder)
        key = rel.parts[0] if len(rel.parts) > 1 else path.stem
        out[key if key not in out else f"{key}_{path.stem}"] = path
    return out


def corpus_sources(folder: Path) -> dict[str, Path]:
    """Model id -> top file of every `ok` model in the corpus manifest (empty when there is no manifest)."""
    manifest = folder / "manifest.json"
    if not manifest.exists():
        return {}
    models = json.loads(manifest.read_text())
    if isinstance(models, dict):
        models = models.get("models", list(models.values()))
    out = {}
    for m in models:
        if m.get("status") == "ok" and m.get("output"):
            out[str(m.get("id") or Path(m["output"]).stem)] = folder / m["output"]
    return out


def drivable(path: Path) -> int:
    """How many revolute or prismatic joints a drive overlay would drive (0 for an unreadable asset)."""
    from omni.simready.physics_validator.core.usd import read_asset

    try:
        asset = read_asset(path)
    except Exception:  # noqa: BLE001 - an unreadable asset gets no overlay (its own verdicts say why)
        return 0
    return sum(1 for j in asset.joints.values() if j.is_dof and not j.is_mimic_follower and not j.loop_closing)


def make_overlays(sources: dict[str, Path], folder: Path, rewrite: bool = False,
                  max_dofs: int = 0) -> tuple[list[str], dict[str, int]]:
    """tools/drive_overlay.py's overlay of every drivable source, as folder/<id>_driven.usda.

    Returns (overlay paths, {id: driven joints} of the sources left out for more than `max_dofs` joints; 0 = no cap).
    """
    sys.path.insert(0, str(ROOT / "tools"))
    from drive_overlay import write_overlay

    folder.mkdir(parents=True, exist_ok=True)
    out, left_out = [], {}
    for key, path in sorted(sources.items()):
        target = folder / f"{key}_driven.usda"
        dofs = drivable(path)
        if not dofs:
            continue
        if max_dofs and dofs > max_dofs:
            left_out[key] = dofs
            continue
        if target.exists() and not rewrite:
            out.append(str(target))
            continue
        target.unlink(missing_ok=True)
        try:
            write_overlay(path, target)
        except Exception as exc:  # noqa: BLE001 - said, and the set goes on without it
            print(f"overlay of {path} not written: {exc}", file=sys.stderr)
            continue
        out.append(str(target))
    return out, left_out


def set_paths(args, wanted: list[str]) -> tuple[dict[str, list[str]], dict[str, dict[str, int]]]:
    """The input paths of each wanted set (overlays are written first where missing), and per set the sources
    left out (id -> driven joints, over --max-dofs)."""
    work = Path(args.work)
    shared = Path(args.shared)
    corpus = corpus_sources(Path(args.corpus) if args.corpus else work / "corpus")
    sets: dict[str, list[str]] = {"crate": [str(CRATE)]}
    left_out: dict[str, dict[str, int]] = {}
    if shared.is_dir():
        sets["shared"] = [str(shared)]
        if "overlays" in wanted:
            sets["overlays"], left_out["overlays"] = make_overlays(shared_sources(shared), work / "overlays",
                                                                   args.rerun, args.max_dofs)
    if corpus:
        sets["corpus"] = [str(p) for _, p in sorted(corpus.items())]
        if "corpus_overlays" in wanted:
            sets["corpus_overlays"], left_out["corpus_overlays"] = make_overlays(corpus, work / "corpus_overlays",
                                                                                 args.rerun, args.max_dofs)
    return {k: v for k, v in sets.items() if v}, left_out


def run_set(name: str, paths: list[str], out: Path, jobs: int, left_out: dict[str, int] | None = None) -> dict:
    """The CLI's --compare run of one set; returns what it cost."""
    folder = out / name
    folder.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "omni.simready.physics_validator.cli", "validate", *paths, "--compare", ",".join(ENGINES),
           "--out", str(folder), "--no-video", "--no-html", "--quiet", "--jobs", str(jobs)]
    start = time.perf_counter()
    with open(folder / "run.log", "w") as log:
        code = subprocess.run(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT).returncode
    info = {"set": name, "assets": len(paths), "exit_code": code, "wall_seconds": round(time.perf_counter() - start, 1),
            "load_average": os.getloadavg(), "jobs": jobs, "finished": datetime.now(timezone.utc).isoformat(),
            "left_out": left_out or {}}
    (folder / "run.json").write_text(json.dumps(info, indent=1))
    if code not in (0, 1):  # 1: some FAIL (normal); 2 usage, 3 an ERROR verdict or interrupted
        print(f"{name}: the CLI exited {code} (see {folder / 'run.log'})", file=sys.stderr)
    return info


# -- facts about an asset (what could make the engines differ) --------------------------------------------
def asset_facts(path: str) -> dict:
    """Joint friction, armature, mimic pairs, newton-only velocity limits and static colliders intersecting a body
    jointed to the world, read from the composed stage and the asset model."""
    from pxr import Usd, UsdPhysics

    from omni.simready.physics_validator.core.usd import read_asset

    facts: dict = {"friction": {}, "armature": {}, "mimic": {}, "newton_velocity_only": [], "scenery": [], "zero_cap": []}
    try:
        stage = Usd.Stage.Open(path, Usd.Stage.LoadAll)
    except Exception as exc:  # noqa: BLE001 - an unreadable asset has no facts (its verdicts are prechecks)
        facts["error"] = str(exc)
        return facts
    for prim in stage.Traverse():
        if not prim.IsA(UsdPhysics.Joint):
            continue
        name = prim.GetName()
        for attr in prim.GetAuthoredAttributes():
            attr_name, value = attr.GetName(), attr.Get()
            low = attr_name.lower()
            if isinstance(value, (int, float)) and value <= 0 and ("maxjointvelocity" in low or low == "newton:velocitylimit"):
                facts["zero_cap"].append(name)
            if not isinstance(value, (int, float)) or not value or "mjc:" in attr_name:
                continue
            if "friction" in low or low == "newton:damping":  # newton:damping is joint viscous friction
                facts["friction"][name] = max(facts["friction"].get(name, 0.0), float(value))
            elif "armature" in low:
                facts["armature"][name] = max(facts["armature"].get(name, 0.0), float(value))
    try:
        asset = read_asset(path)
    except Exception as exc:  # noqa: BLE001
        facts["error"] = str(exc)
        return facts
    for joint in asset.joints.values():
        if joint.mimic_reference:
            facts["mimic"][joint.name] = joint.mimic_reference.rsplit("/", 1)[-1]
        if joint.velocity_limit_source == "newton:velocityLimit":
            facts["newton_velocity_only"].append(joint.name)
    facts["scenery"] = _scenery_contacts(asset)
    return facts


def _world_box(collider):
    import numpy as np

    from omni.simready.physics_validator.core.geometry import box_corners, collider_local_extent, quat_to_matrix

    extent = collider_local_extent(collider)
    if extent is None:
        return None
    corners = box_corners(*extent) @ quat_to_matrix(collider.world_pose.quat).T + np.asarray(collider.world_pose.pos, float)
    return corners.min(axis=0), corners.max(axis=0)


def _scenery_contacts(asset) -> list[str]:
    """'static collider / body' pairs whose authored boxes intersect, for bodies jointed to the world."""
    anchored = {j.body1 or j.body0 for j in asset.joints.values() if (j.body0 is None) != (j.body1 is None) and j.is_dof}
    statics = [c for c in asset.colliders.values() if c.body is None and c.shape != "plane"]
    out = []
    for body in anchored:
        for mine in (c for c in asset.colliders.values() if c.body == body):
            a = _world_box(mine)
            for other in statics:
                b = _world_box(other)
                if a is not None and b is not None and all(a[0] <= b[1]) and all(b[0] <= a[1]):
                    out.append(f"{other.path.rsplit('/', 1)[-1]} / {body.rsplit('/', 1)[-1]}")
    return sorted(set(out))


# -- attributing a disagreement ------------------------------------------------------------------------
def attribute(row: dict, facts: dict) -> tuple[str | None, str]:
    """(cause id, evidence) for one disagreeing row, or (None, '') when nothing in the asset explains it."""
    test, stem = row["test"], Path(row["asset"]).stem
    if (stem, test) in KNOWN:
        return KNOWN[(stem, test)]
    joints = [j["joint"] for j in row["joints"]]
    names = {j.rsplit("/", 1)[-1] for j in joints}
    px, sp = row["verdicts"]["physx"], row["verdicts"]["sapien"]
    if test == "velocity_limit" and px["status"] == "FAIL" and sp["status"] == "PASS":
        for j in row["joints"]:
            m = j["measured"].get("physx", {})
            peak, rate, ratio = m.get("peak_velocity"), m.get("peak_displacement_rate"), m.get("ratio")
            if peak and rate and ratio and ratio > VELOCITY_TOLERANCE and rate * ratio / peak <= VELOCITY_TOLERANCE:
                cap = peak / ratio
                return "S2", (f"{j['joint']}: reported {peak:.4g} vs cap {cap:.4g} (ratio {ratio:.3f}) while the "
                              f"displacement rate stays at {rate:.4g} ({rate / cap:.4f} x cap); sapien "
                              f"{j['measured'].get('sapien', {}).get('peak_velocity', float('nan')):.6g}")
    zero = [n for n in facts.get("zero_cap", []) if not names or n in names]
    if zero:
        return "S12", f"velocity cap authored as 0 on {', '.join(sorted(set(zero))[:4])}"
    newton_only = [n for n in facts.get("newton_velocity_only", []) if not names or n in names]
    if test == "velocity_limit" and newton_only:
        return "S7", f"only newton:velocityLimit on {', '.join(newton_only[:4])}"
    mimic = facts.get("mimic", {})
    hit = [f"{f} follows {leader}" for f, leader in mimic.items() if not names or leader in names or f in names]
    if hit:
        return "S1", "mimic: " + "; ".join(hit[:3])
    friction = facts.get("friction", {})
    hit = {n: v for n, v in friction.items() if not names or n in names}
    if hit and (test == "ground_drop" or len(hit)):
        top = sorted(hit.items(), key=lambda kv: -kv[1])[:3]
        named = ", ".join(f"{n} {v:g}" for n, v in top)
        return "S3", f"joint friction (or newton:damping) authored: {named} ({len(friction)} joints)"
    armature = facts.get("armature", {})
    hit = {n: v for n, v in armature.items() if not names or n in names}
    if hit:
        top = sorted(hit.items(), key=lambda kv: -kv[1])[:3]
        return "S4", "armature authored: " + ", ".join(f"{n} {v:g}" for n, v in top) + f" ({len(armature)} joints)"
    if facts.get("scenery"):
        return "S5", "static collider intersecting a body jointed to the world: " + "; ".join(facts["scenery"][:3])
    return None, ""


# -- the table ------------------------------------------------------------------------------------------
def _fmt(value) -> str:
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else f"{value:.4g}"
    return str(value)


def _deciding(verdict: dict) -> str:
    return ", ".join(f"{k} {_fmt(v)}" for k, v in verdict.get("deciding", {}).items())


DECIDING_JOINT_FIELDS = {
    "velocity_limit": ("peak_velocity", "peak_displacement_rate", "ratio"),
    "full_range_sweep": ("hold_error_max", "hold_error_min", "zero_error", "follow_max", "dead_drive"),
    "drive_gain_validation": ("overshoot_pct", "settling_time_s", "oscillations", "final_error", "follow", "dead_drive"),
    "effort_limit": ("max_deflection", "gave_way", "recovered", "dead_drive"),
}


def _joint_line(test: str, joint: dict) -> str:
    fields = DECIDING_JOINT_FIELDS.get(test, ())
    parts = []
    for engine in ENGINES:
        m = joint["measured"].get(engine, {})
        shown = ", ".join(f"{k} {_fmt(m[k])}" for k in fields if k in m)
        parts.append(f"{engine} {joint['statuses'].get(engine)}" + (f" ({shown})" if shown else ""))
    return f"{joint['joint']}: " + "; ".join(parts)


def _speed(report: dict) -> dict:
    tests = [t for a in report["assets"] for t in a["tests"]]
    wall = sum(t.get("wall_seconds") or 0.0 for t in tests)
    sim = sum(t.get("simulated_seconds") or 0.0 for t in tests)
    started, finished = report.get("started"), report.get("finished")
    elapsed = None
    if started and finished:
        elapsed = (datetime.fromisoformat(finished) - datetime.fromisoformat(started)).total_seconds()
    return {"tests": len(tests), "wall_seconds": round(wall, 1), "simulated_seconds": round(sim, 1),
            "wall_per_simulated_second": round(wall / sim, 4) if sim else None, "elapsed_seconds": elapsed}


def build(out: Path, sets: list[str]) -> dict:
    data: dict = {"engines": list(ENGINES), "sets": {}, "causes": CAUSES}
    facts_cache: dict[str, dict] = {}
    for name in sets:
        folder = out / name
        if not (folder / "compare.json").exists():
            continue
        compare = json.loads((folder / "compare.json").read_text())
        reports = {e: json.loads((folder / e / "report.json").read_text())
                   for e in ENGINES if (folder / e / "report.json").exists()}
        run = json.loads((folder / "run.json").read_text()) if (folder / "run.json").exists() else {}
        per_test = {t: Counter() for t in TESTS}
        pairs = {t: Counter() for t in TESTS}
        rows = []
        for row in compare["rows"]:
            test = row["test"]
            per_test.setdefault(test, Counter())["agree" if row["agree"] else "disagree"] += 1
            pairs.setdefault(test, Counter())[" / ".join(str(row["verdicts"][e]["status"]) for e in ENGINES)] += 1
            if row["agree"]:
                continue
            if row["asset"] not in facts_cache:
                facts_cache[row["asset"]] = asset_facts(row["asset"])
            cause, evidence = attribute(row, facts_cache[row["asset"]])
            rows.append({
                "asset": row["asset"], "test": test, "cause": cause, "evidence": evidence,
                "verdicts": {e: {"status": row["verdicts"][e]["status"], "reason": row["verdicts"][e]["reason"],
                                 "deciding": row["verdicts"][e]["deciding"]} for e in ENGINES},
                "joints": [_joint_line(test, j) for j in row["joints"]],
            })
        total = Counter()
        for c in per_test.values():
            total.update(c)
        data["sets"][name] = {
            "assets": len({r["asset"] for r in compare["rows"]}), "pairs": total["agree"] + total["disagree"],
            "agree": total["agree"], "disagree": total["disagree"],
            "per_test": {t: dict(c) for t, c in per_test.items()}, "verdict_pairs": {t: dict(c) for t, c in pairs.items()},
            "disagreements": rows, "speed": {e: _speed(r) for e, r in reports.items()}, "run": run,
        }
    return data


def portable(value, roots: dict[str, str]):
    """`value` with the machine's folders (work, corpus, shared, checkout) written as WORK/, CORPUS/, ... ."""
    if isinstance(value, dict):
        return {k: portable(v, roots) for k, v in value.items()}
    if isinstance(value, list):
        return [portable(v, roots) for v in value]
    if isinstance(value, str):
        for folder, name in roots.items():
            value = value.replace(folder, name)
    return value


def write_json(data: dict, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, default=str) + "\n")


def write_markdown(data: dict, path: Path) -> None:
    md = ["# Agreement: physx (ovphysx, PhysX 5.12) vs sapien (PhysX 5.3)", "",
          "Generated by `python tools/agreement_table.py` (do not edit by hand; the causes are explained in",
          "[engine-divergences.md](engine-divergences.md)). Every input validated on both engines, all five tests,",
          "through `simready-physics validate ... --compare physx,sapien --no-video --no-html`; a pair agrees when",
          "both verdicts have the same status.", "", "## Summary", "",
          "| set | assets | pairs | agree | disagree | physx wall / sim-s | sapien wall / sim-s |",
          "|---|---|---|---|---|---|---|"]
    for name, s in data["sets"].items():
        speed = [s["speed"].get(e, {}).get("wall_per_simulated_second") for e in ENGINES]
        md.append(f"| {name} | {s['assets']} | {s['pairs']} | {s['agree']} | {s['disagree']} | "
                  + " | ".join(_fmt(v) for v in speed) + " |")
    causes = Counter(r["cause"] or "unexplained" for s in data["sets"].values() for r in s["disagreements"])
    md += ["", "## Disagreements by cause", "", "| cause | what | disagreements |", "|---|---|---|"]
    for cause, n in sorted(causes.items(), key=lambda kv: (-kv[1], kv[0])):
        md.append(f"| {cause} | {data['causes'].get(cause, 'not explained by any known cause')} | {n} |")
    for name, s in data["sets"].items():
        md += ["", f"## {name}", ""]
        left_out = s["run"].get("left_out") or {}
        if left_out:
            md += ["Left out (more driven joints than `--max-dofs`): "
                   + ", ".join(f"{k} ({v})" for k, v in sorted(left_out.items(), key=lambda kv: -kv[1])) + ".", ""]
        md += ["| test | agree | disagree | verdict pairs (physx / sapien: count) |", "|---|---|---|---|"]
        for test in TESTS:
            c = s["per_test"].get(test, {})
            vp = ", ".join(f"{k}: {v}" for k, v in sorted(s["verdict_pairs"].get(test, {}).items(), key=lambda kv: -kv[1]))
            md.append(f"| {test} | {c.get('agree', 0)} | {c.get('disagree', 0)} | {vp} |")
        if s["disagreements"]:
            md += ["", "| asset | test | physx | sapien | cause | evidence |", "|---|---|---|---|---|---|"]
            for r in s["disagreements"]:
                cells = []
                for e in ENGINES:
                    v = r["verdicts"][e]
                    cells.append(f"**{v['status']}** ({_deciding(v)})")
                evidence = r["evidence"] or "—"
                if r["joints"]:
                    more = f"<br>(+{len(r['joints']) - 4} joints)" if len(r["joints"]) > 4 else ""
                    evidence += "<br>" + "<br>".join(r["joints"][:4]) + more
                asset = Path(r["asset"])
                md.append(f"| {asset.parent.name}/{asset.name} | {r['test']} | {cells[0]} | {cells[1]} | "
                          f"{r['cause'] or 'unexplained'} | "
                          + evidence.replace("|", "/") + " |")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(md) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", default=str(ROOT / "build" / "agreement-work"),
                        help="work folder: overlays, the corpus by default, and the runs (WORK/agreement/<set>/)")
    parser.add_argument("--shared", default=str(ROOT.parent / "shared" / "assets"), help="the shared assets folder")
    parser.add_argument("--corpus", default="", help="the built corpus folder with manifest.json (default WORK/corpus)")
    parser.add_argument("--jobs", type=int, default=1, help="workers per engine run (the CLI's --jobs)")
    parser.add_argument("--sets", default=",".join(SET_ORDER), help=f"comma-separated, of {', '.join(SET_ORDER)}")
    parser.add_argument("--max-dofs", type=int, default=24,
                        help="overlays only of assets with at most this many driven joints (0: all); the joint "
                             "tests' cost grows with the joints times the step cost, the 50-70-joint MJCF bodies "
                             "take many minutes each")
    parser.add_argument("--rerun", action="store_true", help="write overlays and run sets again even when present")
    parser.add_argument("--table-only", action="store_true", help="no runs: rebuild the table from WORK")
    parser.add_argument("--md", default=str(ROOT / "docs/agreement.md"), help="the markdown table")
    parser.add_argument("--json", default=str(ROOT / "docs/agreement.json"), help="the table as JSON")
    args = parser.parse_args(argv)

    out = Path(args.work) / "agreement"
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in wanted if s not in SET_ORDER]
    if unknown:
        parser.error(f"unknown set {', '.join(unknown)} (known: {', '.join(SET_ORDER)})")
    if not args.table_only:
        paths, left_out = set_paths(args, wanted)
        for name in wanted:
            if name not in paths:
                print(f"{name}: no inputs here, skipped", file=sys.stderr)
                continue
            if (out / name / "compare.json").exists() and not args.rerun:
                continue
            info = run_set(name, paths[name], out, args.jobs, left_out.get(name))
            print(f"{name}: {info['assets']} inputs in {info['wall_seconds']} s (exit {info['exit_code']})", flush=True)
    data = build(out, wanted)
    roots = {str(Path(p).resolve()): name for p, name in ((args.corpus or "", "CORPUS"), (args.work, "WORK"),
                                                          (args.shared, "SHARED"), (str(ROOT), "CHECKOUT")) if p}
    data = portable(data, dict(sorted(roots.items(), key=lambda kv: -len(kv[0]))))
    write_json(data, Path(args.json))
    write_markdown(data, Path(args.md))
    unexplained = [r for s in data["sets"].values() for r in s["disagreements"] if not r["cause"]]
    for name, s in data["sets"].items():
        print(f"{name}: {s['pairs']} pairs, {s['agree']} agree, {s['disagree']} disagree")
    if unexplained:
        print(f"{len(unexplained)} disagreements not explained:", file=sys.stderr)
        for r in unexplained:
            print(f"  {r['asset']} {r['test']}: physx {r['verdicts']['physx']['status']}, "
                  f"sapien {r['verdicts']['sapien']['status']}", file=sys.stderr)
    return 1 if unexplained else 0


if __name__ == "__main__":
    raise SystemExit(main())
