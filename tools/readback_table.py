"""Every runtime-readback flag of one or more reports, grouped, with the verdicts each explains (issue 28).

    python tools/readback_table.py OUT/report.json [OUT2/report.json ...] [--md FILE]

One markdown table per report: asset, property, flag, attribute read, how many joints/bodies, the authored ->
runtime values (author's units), and the verdicts the flag explains (counted over the joints). The links are
recomputed with the current rules (core/readback_links.py), so a report written by an older build reads the same.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

from omni.simready.physics_validator.core.readback_links import link
from omni.simready.physics_validator.physics_tests import default_registry
from omni.simready.physics_validator.reports.json_report import read_json_report
from omni.simready.physics_validator.reports.readback_view import value_text


def table(report_path: Path) -> list[str]:
    report = read_json_report(report_path)
    target = report.engine.settings.get("physx.target", "")
    lines = [f"### {report_path} ({report.engine.name}{', physx.target=' + str(target) if target else ''})", ""]
    rows: dict[tuple, list] = defaultdict(lambda: [0, [], Counter()])
    seconds, missing = [], []
    for asset in report.assets:
        name = "/".join(Path(asset.path).parts[-2:])
        readback = asset.runtime_readback
        if readback is None:
            missing.append(name)
            continue
        link(asset, default_registry())
        seconds.append(readback.seconds)
        for e in readback.flagged():
            row = rows[(name, e.property, e.flag, e.authored_attribute or "—")]
            row[0] += 1
            authored = value_text(e.authored, e.unit) if e.authored is not None else "not authored"
            pair = f"{authored} → {value_text(e.runtime, e.unit)}"
            if pair not in row[1]:
                row[1].append(pair)
            row[2].update(e.explains)
    lines += ["| asset | property | flag | attribute | n | authored → runtime | explains (joints) |",
              "|---|---|---|---|---|---|---|"]
    for (name, prop, flag, attribute), (n, pairs, explains) in rows.items():
        shown = "; ".join(pairs[:3]) + (" …" if len(pairs) > 3 else "")
        linked = ", ".join(f"{v} ({c})" for v, c in explains.items()) or "—"
        lines.append(f"| {name} | {prop} | {flag} | {attribute} | {n} | {shown} | {linked} |")
    flags = Counter()
    for (_n, _p, flag, _a), (n, _pairs, _e) in rows.items():
        flags[flag] += n
    seconds.sort()
    lines += ["", f"flags: {dict(flags)}; assets without a readback: {missing or 'none'}; "
              f"read in {1000 * seconds[len(seconds) // 2]:.0f} ms median, {1000 * seconds[-1]:.0f} ms max ({len(seconds)} "
              f"assets)"
              if seconds else "no readback", ""]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reports", nargs="+", type=Path)
    parser.add_argument("--md", type=Path, help="also write the tables to this file")
    args = parser.parse_args(argv)
    lines = [line for path in args.reports for line in table(path)]
    text = "\n".join(lines)
    print(text)
    if args.md:
        args.md.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
