"""Validate the verdict set of a before/after comparison with one checkout's code (tools/verdict_diff.py compares two).

The set: the bundled crate, every shared asset (floating-base variants included) and their drive overlays ("shared":
38 inputs, 380 verdicts with ten tests), and the drive overlays of the corpus build ("corpus": 65 inputs, 650
verdicts), on physx, no video, no HTML. The overlays are written once into WORK by tools/agreement_table.py's own
functions (with the code of the checkout that runs first; an existing file is kept), so the checkouts compared
validate the same files. docs/architecture.md ("A change that moves no verdict") gives the whole procedure.

Usage:
    python tools/verdict_set.py CHECKOUT OUT --work WORK [--sets shared,corpus] [--shared DIR] [--corpus DIR] [-j 2]
writes OUT/shared/report.json and OUT/corpus/report.json; then
    python tools/verdict_diff.py BEFORE/shared/report.json AFTER/shared/report.json
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path("exts/omni.simready.physics_validator")
CRATE = PACKAGE / "data/examples/crate.usda"

WRITE_OVERLAYS = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import agreement_table as at
work, shared, corpus, which = Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]), sys.argv[5]
if which == "shared":
    paths, left = at.make_overlays(at.shared_sources(shared), work / "overlays")
else:
    paths, left = at.make_overlays(at.corpus_sources(corpus), work / "corpus_overlays", max_dofs=24)
print(f"{which}: {len(paths)} overlays; left out (more than 24 driven joints): {sorted(left)}")
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", help="the checkout whose code validates the set")
    parser.add_argument("out", help="report folder: OUT/<set>/report.json")
    parser.add_argument("--work", required=True, help="where the overlays are (written on the first run)")
    parser.add_argument("--sets", default="shared,corpus")
    parser.add_argument("--shared", default=str(ROOT.parent / "shared" / "assets"), help="the shared assets")
    parser.add_argument("--corpus", default="", help="the corpus build (its manifest.json); needed for 'corpus'")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    checkout, work, out = Path(args.checkout).resolve(), Path(args.work).resolve(), Path(args.out).resolve()
    env = {**os.environ, "PYTHONPATH": str(checkout / PACKAGE)}
    code = 0
    for which in [s.strip() for s in args.sets.split(",") if s.strip()]:
        if which == "corpus" and not args.corpus:
            parser.error("--corpus DIR is needed for the corpus set")
        subprocess.run([sys.executable, "-c", WRITE_OVERLAYS, str(checkout / "tools"), str(work), args.shared,
                        args.corpus or ".", which], env=env, check=True)
        inputs = ([str(checkout / CRATE), args.shared, str(work / "overlays")] if which == "shared"
                  else [str(work / "corpus_overlays")])
        folder = out / which
        cmd = [sys.executable, "-m", "omni.simready.physics_validator.cli", "validate", *inputs, "--engine", "physx",
               "--no-video", "--no-html", "--quiet", "--jobs", str(args.jobs), "--out", str(folder)]
        result = subprocess.run(cmd, env=env)
        print(f"{which}: exit {result.returncode} (0/1: verdicts; 3: an ERROR verdict or an interrupted run), "
              f"{folder / 'report.json'}")
        code = max(code, 0 if result.returncode in (0, 1, 3) and (folder / "report.json").exists() else 2)
    return code


if __name__ == "__main__":
    sys.exit(main())
