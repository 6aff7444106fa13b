"""Compare the verdicts of two report.json files test by test: what changed, beyond timings and codes.

Used to show that a restructuring changed no verdict (status, reason, metrics, joint rows, excluded joints, hints,
warnings, simulated seconds all identical) and, for a verdict-changing change, to list every verdict that moved.
Results are paired by (asset, test name), an asset named by the last three parts of its path (so two checkouts'
copies of a bundled asset pair up); wall times, peak memory, artifact paths, timestamps and the
verdict codes (added in schema 2.2) are masked.

Usage:
    python tools/verdict_diff.py BEFORE/report.json AFTER/report.json [--statuses-only] [--markdown]
Exit code 0 when nothing but masked fields differ, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

MASKED_RESULT = {"wall_seconds", "artifacts", "code", "log"}
MASKED_ROW = {"code", "codes"}
MASKED_EXCLUDED = {"code"}


def load(path: str) -> dict[tuple[str, str], dict]:
    report = json.loads(Path(path).read_text(encoding="utf-8"))
    return {("/".join(Path(asset["path"]).parts[-3:]), test["name"]): test
            for asset in report["assets"] for test in asset["tests"]}


def comparable(test: dict) -> dict:
    out = {k: v for k, v in test.items() if k not in MASKED_RESULT}
    out["joints"] = [{k: v for k, v in row.items() if k not in MASKED_ROW} for row in test.get("joints", [])]
    out["excluded_joints"] = [{k: v for k, v in ex.items() if k not in MASKED_EXCLUDED}
                              for ex in test.get("excluded_joints", [])]
    return out


def differences(before: dict, after: dict) -> list[str]:
    """The top-level fields (and joint rows by name) that differ."""
    a, b = comparable(before), comparable(after)
    fields = [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    if "joints" in fields:
        rows_a = {r["joint"]: r for r in a["joints"]}
        rows_b = {r["joint"]: r for r in b["joints"]}
        changed = [j for j in sorted(set(rows_a) | set(rows_b)) if rows_a.get(j) != rows_b.get(j)]
        fields[fields.index("joints")] = f"joints({', '.join(changed)})"
    return fields


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--statuses-only", action="store_true", help="compare the statuses alone")
    parser.add_argument("--markdown", action="store_true", help="a markdown table of the changed verdicts")
    args = parser.parse_args(argv)
    before, after = load(args.before), load(args.after)
    keys = sorted(set(before) | set(after))
    changed = []
    for key in keys:
        b, a = before.get(key), after.get(key)
        if b is None or a is None:
            changed.append((key, "missing before" if b is None else "missing after", b, a))
            continue
        if args.statuses_only:
            if b["status"] != a["status"]:
                changed.append((key, "status", b, a))
            continue
        fields = differences(b, a)
        if fields:
            changed.append((key, ", ".join(fields), b, a))
    if args.markdown:
        print("| asset | test | before | after | what changed |\n|---|---|---|---|---|")
    for (asset, test), what, b, a in changed:
        sb, sa = (b or {}).get("status", "-"), (a or {}).get("status", "-")
        if args.markdown:
            print(f"| {Path(asset).name} | {test} | {sb} | {sa} | {what} |")
        else:
            print(f"{asset} :: {test}: {sb} -> {sa}; differs in {what}")
    print(f"{len(keys)} verdicts compared, {len(changed)} differ", file=sys.stderr)
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
