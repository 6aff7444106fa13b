"""Where Newton's two targets give different verdicts on the same assets: the measured table of docs/engine-divergences.md
("Newton latest vs isaacsim-6.2").

    python tools/newton_target_divergences.py ASSET [ASSET ...] --out DIR [-j 1] [--rerun]

Validates the assets twice with the CLI, `simready-physics validate ASSETS --engine newton --set newton.target=T
--no-video --no-html -j J --out DIR/T`, for T = latest and isaacsim-6.2 (a target whose report.json exists is not run
again unless --rerun; each run's wall and CPU seconds and the load are printed and kept in DIR/T/run.json, its output
in DIR/T/run.log), pairs the results by asset and test as `validate --compare` does (core/comparison.compare_reports),
and prints markdown:

1. every pair whose status or code differs, with each side's code and the deciding metrics that differ, and the joints
   whose own verdicts differ (or the ERROR's reason);
2. every pair with the same status and code whose deciding numbers differ by more than RELATIVE (10 %).

The causes are not guessed here: docs/engine-divergences.md names them beside the table.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from bench_newton import CLI, load, timed

from omni.simready.physics_validator.core.comparison import ComparisonRow, compare_reports
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.reports.json_report import read_json_report

TARGETS = ("latest", "isaacsim-6.2")
RELATIVE = 0.10  # a deciding number of an agreeing pair is listed when the two targets' differ by more than this


def run_target(target: str, assets: list[str], out: Path, jobs: int, rerun: bool) -> dict:
    """The target's validation (once), and what it cost."""
    folder = out / target
    if (folder / "report.json").exists() and (folder / "run.json").exists() and not rerun:
        return json.loads((folder / "run.json").read_text())
    before = load()
    wall, cpu, run = timed([*CLI, "validate", *assets, "--engine", "newton", "--set", f"newton.target={target}",
                            "--no-video", "--no-html", "--quiet", "-j", str(jobs), "--out", str(folder)])
    cost = {"target": target, "wall": wall, "cpu": cpu, "load": f"{before} -> {load()}", "exit": run.returncode}
    if not (folder / "report.json").exists():
        raise SystemExit(f"newton.target={target}: no report ({run.stderr[-2000:]})")
    (folder / "run.json").write_text(json.dumps(cost))
    (folder / "run.log").write_text(run.stdout + run.stderr)  # the runtimes' own lines (e.g. contacts over nconmax)
    return cost


def short(asset: str) -> str:
    """The asset's folder and file name (the shared assets' floating_base.usda files differ by folder)."""
    return "/".join(Path(asset).parts[-2:])


def number(value) -> str:
    if isinstance(value, float):
        return f"{value:.4g}"
    return "–" if value is None else str(value)


def differing(row: ComparisonRow, relative: float = 0.0) -> list[str]:
    """'name a → b' for each deciding metric whose values differ (by more than `relative` for numbers)."""
    a, b = (row.verdicts[t] for t in TARGETS)
    out = []
    for name in dict.fromkeys([*a.deciding, *b.deciding]):
        x, y = a.deciding.get(name), b.deciding.get(name)
        if x == y:
            continue
        if (relative and isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool)
                and not isinstance(y, bool) and math.isclose(x, y, rel_tol=relative, abs_tol=1e-12)):
            continue
        unit = a.units.get(name) or b.units.get(name) or ""
        out.append(f"{name} {number(x)} → {number(y)}{f' {unit}' if unit else ''}")
    return out


def verdict_cell(row: ComparisonRow, target: str) -> str:
    v = row.verdicts[target]
    status = v.status.value if v.status is not None else "–"
    return f"{status} `{v.code}`" if v.code and v.code != "OK" else status


def what_differs(row: ComparisonRow) -> str:
    a, b = (row.verdicts[t] for t in TARGETS)
    if "ERROR" in (getattr(a.status, "value", None), getattr(b.status, "value", None)):
        error = a if getattr(a.status, "value", None) == "ERROR" else b
        return error.reason.splitlines()[0].replace(row.asset, short(row.asset))[:400].replace("|", "/")
    parts = differing(row)
    parts += [f"{j.joint}: {' → '.join(getattr(j.statuses[t], 'value', '–') for t in TARGETS)}" for j in row.joints]
    return "; ".join(parts)[:400].replace("|", "/")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assets", nargs="+")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--rerun", action="store_true")
    args = parser.parse_args(argv)

    costs = [run_target(t, args.assets, args.out, args.jobs, args.rerun) for t in TARGETS]
    reports = {t: read_json_report(args.out / t / "report.json") for t in TARGETS}
    comparison = compare_reports(reports, default_registry())
    for t, cost in zip(TARGETS, costs):
        print(f"- `newton.target={t}` ({reports[t].engine.version}): {cost['wall']:.0f} s wall, {cost['cpu']:.0f} s CPU, "
              f"load {cost['load']}, exit {cost['exit']}")
    moved = [r for r in comparison.rows if not r.agree or r.verdicts[TARGETS[0]].code != r.verdicts[TARGETS[1]].code]
    print(f"\n{len(comparison.rows)} verdicts on {len({r.asset for r in comparison.rows})} assets; "
          f"{len(moved)} differ in status or code:\n")
    print(f"| asset | test | {' | '.join(TARGETS)} | what differs ({' → '.join(TARGETS)}) |\n|---|---|---|---|---|")
    errors: dict[tuple[str, str], list[ComparisonRow]] = {}  # one line per asset and ERROR reason
    for row in moved:
        if any(getattr(row.verdicts[t].status, "value", None) == "ERROR" for t in TARGETS):
            errors.setdefault((row.asset, what_differs(row)), []).append(row)
            continue
        print(f"| {short(row.asset)} | {row.test} | {' | '.join(verdict_cell(row, t) for t in TARGETS)} | "
              f"{what_differs(row)} |")
    for (asset, why), rows in errors.items():
        cells = [", ".join(f"{r.test} {verdict_cell(r, t)}" for r in rows) if len({verdict_cell(r, t) for r in rows}) > 1
                 else verdict_cell(rows[0], t) for t in TARGETS]
        print(f"| {short(asset)} | {len(rows)} tests | {' | '.join(cells)} | {why} |")
    numbers = [(row, differing(row, RELATIVE)) for row in comparison.rows if row not in moved]
    numbers = [(row, parts) for row, parts in numbers if parts]
    print(f"\nSame verdict, deciding numbers more than {RELATIVE:.0%} apart ({len(numbers)}):\n")
    print(f"| asset | test | verdict | {' → '.join(TARGETS)} |\n|---|---|---|---|")
    for row, parts in numbers:
        print(f"| {short(row.asset)} | {row.test} | {verdict_cell(row, TARGETS[0])} | "
              f"{'; '.join(parts)[:400].replace('|', '/')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
