"""What `simready-physics fix` fixes over a set of assets with generic drive overlays, and what it cannot (issue 16).

    python tools/fix_table.py [--work DIR] [--corpus DIR] [--shared DIR] [--sets corpus_overlays,shared_weak]
                              [--jobs 2] [--max-dofs 24] [--rerun] [--table-only] [--md docs/fix-corpus.md]

Sets (a set whose inputs are missing is skipped with a message):
- corpus_overlays: `tools/drive_overlay.py`'s generic overlay of every `ok` model of the corpus (--corpus, with
  manifest.json; build it with shared/tools/asset-corpus/build_corpus.sh DIR) that has a joint to drive and at
  most --max-dofs driven joints, in WORK/corpus_overlays/ (the files `tools/agreement_table.py` writes, reused);
- shared_weak: the shared robots of tests/fixtures/weak_drives.py with that overlay and every drive weakened
  (2 % stiffness, no damping, 10 % maxForce), in WORK/shared_weak/.

Each set is fixed once with the CLI (`simready-physics fix PATHS --out WORK/fix/<set> -j N --quiet`); a set whose
report.json exists is not run again unless --rerun. The table counts, per test, the FAIL and WARN verdicts as
authored, how many the accepted layers turned into PASS (fixed), into WARN (improved), and how many stay; then the
failures drive values cannot fix by cause (core.results.NotFixable.cause, explained in docs/fix.md), and per asset
the fix status with its summary. Nothing that passed may fail with an accepted layer: the tool exits 1 if one did.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ("ground_drop", "velocity_limit", "full_range_sweep", "drive_gain_validation", "effort_limit")
FAILING = ("FAIL", "WARN")
SET_ORDER = ("shared_weak", "corpus_overlays")


def _tool(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def set_paths(args, wanted: list[str]) -> dict[str, list[str]]:
    work = Path(args.work)
    out: dict[str, list[str]] = {}
    if "corpus_overlays" in wanted:
        agreement = _tool("agreement_table")
        corpus = agreement.corpus_sources(Path(args.corpus)) if args.corpus else {}
        if corpus:
            out["corpus_overlays"], _ = agreement.make_overlays(corpus, work / "corpus_overlays", args.rerun, args.max_dofs)
    if "shared_weak" in wanted and Path(args.shared).is_dir():
        sys.path.insert(0, str(ROOT))
        from tests.fixtures.weak_drives import weak_overlay

        folder = work / "shared_weak"
        paths = []
        for name, robot in sorted(_weak_robots(Path(args.shared)).items()):
            target = folder / f"{name}_weak.usda"
            if not target.exists() or args.rerun:
                weak_overlay(robot, folder, name)
            paths.append(str(target))
        out["shared_weak"] = paths
    return {k: v for k, v in out.items() if v}


def _weak_robots(shared: Path) -> dict[str, Path]:
    sys.path.insert(0, str(ROOT))
    from tests.fixtures.weak_drives import ROBOTS

    found = {name: shared / path.relative_to(path.parents[1]) for name, path in ROBOTS.items()}
    return {name: path for name, path in found.items() if path.exists()}


def run_set(name: str, paths: list[str], out: Path, jobs: int) -> dict:
    folder = out / name
    folder.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "omni.simready.physics_validator.cli", "fix", *paths, "--out", str(folder),
           "--quiet", "--jobs", str(jobs)]
    start = time.perf_counter()
    with open(folder / "run.log", "w") as log:
        code = subprocess.run(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT).returncode
    info = {"set": name, "assets": len(paths), "exit_code": code, "wall_seconds": round(time.perf_counter() - start, 1),
            "jobs": jobs}
    (folder / "run.json").write_text(json.dumps(info, indent=1))
    return info


def tally(report: dict) -> dict:
    """Counts over one fix report (report.json of `simready-physics fix`)."""
    per_test = {t: Counter() for t in TESTS}
    causes: Counter = Counter()
    statuses: Counter = Counter()
    broken: list[str] = []
    assets = []
    for asset in report["assets"]:
        fix = asset.get("fix") or {}
        status = fix.get("status", "none")
        statuses[status] += 1
        accepted = status == "accepted"
        for test in fix.get("tests", []):
            before, after = test["before"], test.get("after") if accepted else None
            if before in FAILING:
                c = per_test.setdefault(test["test"], Counter())
                c["failing"] += 1
                c["fixed" if after == "PASS" else "improved" if (before, after) == ("FAIL", "WARN") else "remaining"] += 1
            elif accepted and after not in (before, None):
                broken.append(f"{asset['path']} {test['test']}: {before} -> {after}")
        for item in fix.get("not_fixable", []):
            causes[item["cause"]] += 1
        assets.append({"path": asset["path"], "status": status, "summary": fix.get("summary", ""),
                       "tests": {t["test"]: (t["before"], t.get("after") if accepted else None) for t in fix.get("tests", [])},
                       "causes": sorted({n["cause"] for n in fix.get("not_fixable", [])})})
    return {"per_test": {t: dict(c) for t, c in per_test.items()}, "causes": dict(causes), "statuses": dict(statuses),
            "broken": broken, "assets": assets}


def write_markdown(sets: dict, path: Path) -> None:
    md = ["# `simready-physics fix` over generic drive overlays", "",
          "Generated by `python tools/fix_table.py` (do not edit by hand; the causes are explained in",
          "[fix.md](fix.md)). FAIL/WARN verdicts as authored, and what the accepted layers make of them.", ""]
    for name, s in sets.items():
        run = s.get("run", {})
        md += [f"## {name}", "", f"{len(s['assets'])} assets, fixed in {run.get('wall_seconds', '?')} s with "
               f"{run.get('jobs', '?')} jobs (`fix` exit code {run.get('exit_code', '?')}: 0 = every verdict passes with its "
               "layer, 1 = failures remain). Fix status per asset: "
               + ", ".join(f"{k} {v}" for k, v in sorted(s["statuses"].items(), key=lambda kv: -kv[1])) + ".", "",
               "| test | FAIL/WARN as authored | fixed (→ PASS) | improved (FAIL → WARN) | remaining |", "|---|---|---|---|---|"]
        total = Counter()
        for test in TESTS:
            c = s["per_test"].get(test, {})
            total.update(c)
            md.append(f"| {test} | {c.get('failing', 0)} | {c.get('fixed', 0)} | {c.get('improved', 0)} | "
                      f"{c.get('remaining', 0)} |")
        md.append(f"| **all** | **{total['failing']}** | **{total['fixed']}** | **{total['improved']}** | "
                  f"**{total['remaining']}** |")
        md += ["", f"Verdicts that passed as authored and fail with an accepted layer: **{len(s['broken'])}**.", "",
               "| cannot be fixed by drive values: cause | findings (one per joint and test, or per test) |", "|---|---|"]
        for cause, n in sorted(s["causes"].items(), key=lambda kv: -kv[1]):
            md.append(f"| `{cause}` | {n} |")
        md += ["", "| asset | fix | as authored → with the layer | why not (causes) |", "|---|---|---|---|"]
        for a in s["assets"]:
            cells = ", ".join(f"{t} {b}→{x}" if x and x != b else f"{t} {b}"
                              for t, (b, x) in a["tests"].items() if b in FAILING or (x and x != b))
            md.append(f"| {Path(a['path']).stem} | {a['status']} | {cells or '—'} | {', '.join(a['causes']) or '—'} |")
        md.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(md) + "\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", default=str(ROOT / "build" / "fix-work"), help="overlays and runs (WORK/fix/<set>/)")
    parser.add_argument("--corpus", default="", help="the built corpus folder with manifest.json")
    parser.add_argument("--shared", default=str(ROOT.parent / "shared" / "assets"), help="the shared assets folder")
    parser.add_argument("--sets", default=",".join(SET_ORDER), help=f"comma-separated, of {', '.join(SET_ORDER)}")
    parser.add_argument("--jobs", type=int, default=2, help="assets at once (the CLI's --jobs)")
    parser.add_argument("--max-dofs", type=int, default=24,
                        help="corpus overlays only of assets with at most this many driven joints")
    parser.add_argument("--rerun", action="store_true", help="write overlays and fix again even when present")
    parser.add_argument("--table-only", action="store_true", help="no runs: rebuild the table from WORK")
    parser.add_argument("--md", default=str(ROOT / "docs" / "fix-corpus.md"), help="the markdown table")
    args = parser.parse_args(argv)
    wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in wanted if s not in SET_ORDER]
    if unknown:
        parser.error(f"unknown set {', '.join(unknown)} (known: {', '.join(SET_ORDER)})")
    out = Path(args.work) / "fix"
    if not args.table_only:
        paths = set_paths(args, wanted)
        for name in wanted:
            if name not in paths:
                print(f"{name}: no inputs here, skipped", file=sys.stderr)
                continue
            if (out / name / "report.json").exists() and not args.rerun:
                continue
            info = run_set(name, paths[name], out, args.jobs)
            print(f"{name}: {info['assets']} assets fixed in {info['wall_seconds']} s (exit {info['exit_code']})", flush=True)
    sets = {}
    for name in wanted:
        report = out / name / "report.json"
        if report.exists():
            sets[name] = tally(json.loads(report.read_text()))
            run = out / name / "run.json"
            sets[name]["run"] = json.loads(run.read_text()) if run.exists() else {}
    write_markdown(sets, Path(args.md))
    broken = [b for s in sets.values() for b in s["broken"]]
    for name, s in sets.items():
        total = Counter()
        for c in s["per_test"].values():
            total.update(c)
        print(f"{name}: {total['failing']} FAIL/WARN as authored, {total['fixed']} fixed, {total['improved']} improved, "
              f"{total['remaining']} remaining; {len(s['broken'])} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    raise SystemExit(main())
