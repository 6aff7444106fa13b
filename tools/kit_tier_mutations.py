"""Mutations of the Kit extension that the kit test tier must fail on: each one applied to a copy of this checkout, the
tier tests that should catch it run there, and the outcome printed (docs/kit-extension.md keeps the last result).

    python tools/kit_tier_mutations.py                 # every mutation, after the unmutated baseline
    python tools/kit_tier_mutations.py --only omni-ui-keyword --only setting-renamed

Each mutation is one exact text replacement that must occur once in its file (the script stops otherwise, so a
mutation never silently stops applying). The tier runs as CI runs it (`SIMREADY_KIT_TIER=required`, one pytest
process, `-n 0`), against the copy (its package on PYTHONPATH). A mutation is caught when pytest exits 1 (tests ran and
failed); it survived when they pass. Exit code: 0 when the baseline passes and every mutation is caught, 1 otherwise.
Needs the kit tier's venv (`bash tools/install_kit_tier.sh`); each lifecycle run takes about a minute.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = "exts/omni.simready.physics_validator/omni/simready/physics_validator"
LIFECYCLE = "tests/kit/test_kit_lifecycle.py"
AS_A_USER = "tests/kit/test_kit_cli.py"


@dataclass(frozen=True)
class Mutation:
    name: str
    what: str  # for people
    path: str  # relative to the checkout
    old: str
    new: str
    tests: tuple[str, ...]


MUTATIONS = (
    Mutation("omni-ui-keyword", "an omni.ui keyword misspelled (`word_wrap` as `wrod_wrap` on the message label)",
             f"{PACKAGE}/ui/window.py", "ui.Label(self.vm.message, word_wrap=True,",
             "ui.Label(self.vm.message, wrod_wrap=True,", (LIFECYCLE,)),
    Mutation("usd-event-name", "an omni.usd stage event name written by hand (`omni.usd:stage:<event>`, one colon short "
             "of the default context's `omni.usd::stage:<event>`) instead of `stage_event_name()`",
             f"{PACKAGE}/extension.py", "dispatcher.observe_event(event_name=context.stage_event_name(event),",
             'dispatcher.observe_event(event_name=f"omni.usd:stage:{event.name.lower()}",', (LIFECYCLE,)),
    Mutation("usd-event-type", "an omni.usd StageEventType member that does not exist (`SELECTION_CHANGE`)",
             f"{PACKAGE}/extension.py", "stage_events.SELECTION_CHANGED)", "stage_events.SELECTION_CHANGE)",
             (LIFECYCLE,)),
    Mutation("on-startup-raises", "on_startup raising before it registers anything",
             f"{PACKAGE}/extension.py", "        self._ext_name = omni.ext.get_extension_name(ext_id)\n",
             '        raise RuntimeError("mutation: on_startup raises")\n', (AS_A_USER,)),
    Mutation("leaked-subscription", "the live runner keeping its observers (update loop, stage events) after a run",
             f"{PACKAGE}/live/runner.py", "        self._steps = []\n        self._observers = []\n",
             "        self._steps = []\n", (LIFECYCLE,)),
    Mutation("setting-renamed", "a [settings] key renamed in extension.toml (`record_video` as `record_videos`)",
             "exts/omni.simready.physics_validator/config/extension.toml",
             'exts."omni.simready.physics_validator".record_video = true',
             'exts."omni.simready.physics_validator".record_videos = true', (LIFECYCLE,)),
)


def checkout_copy(into: Path) -> Path:
    """The checkout's files as they are now (tracked and new, not ignored ones), copied into `into`."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=REPO,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for relative in filter(None, listed):
        source = REPO / relative
        if source.is_file():
            target = into / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return into


def apply(mutation: Mutation, root: Path) -> None:
    path = root / mutation.path
    text = path.read_text(encoding="utf-8")
    count = text.count(mutation.old)
    if count != 1:
        raise SystemExit(f"{mutation.name}: {mutation.path} contains the text to mutate {count} times, not once: "
                         f"update the mutation to the code")
    path.write_text(text.replace(mutation.old, mutation.new), encoding="utf-8")


def run_tier(root: Path, tests: tuple[str, ...]) -> tuple[int, list[str], str, float]:
    """pytest on `tests` in the copy: its exit code, the failed tests, the first failure's first line, wall seconds."""
    env = {**os.environ, "PYTHONPATH": str(root / "exts" / "omni.simready.physics_validator"),
           "SIMREADY_KIT_TIER": "required"}
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider", "-rfE", *tests],
                          cwd=root, env=env, capture_output=True, text=True)
    failed = re.findall(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", proc.stdout, re.M)
    first = next(iter(re.findall(r"^E +(\S.*)$", proc.stdout, re.M)), "")
    return proc.returncode, [f.split("::", 1)[-1] for f in failed], first[:200], time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=[m.name for m in MUTATIONS], help="run only these")
    args = parser.parse_args(argv)
    chosen = [m for m in MUTATIONS if not args.only or m.name in args.only]
    ok = True
    with tempfile.TemporaryDirectory(prefix="kit-tier-mutations-") as scratch:
        baseline_tests = tuple(sorted({t for m in chosen for t in m.tests}))
        base = checkout_copy(Path(scratch) / "baseline")
        code, failed, _why, seconds = run_tier(base, baseline_tests)
        print(f"baseline (no mutation): {' '.join(baseline_tests)}: exit {code}, {seconds:.0f} s"
              + (f", failed: {', '.join(failed)}" if failed else ""), flush=True)
        if code != 0:
            print("the unmutated tier does not pass: no mutation result means anything")
            return 1
        for mutation in chosen:
            root = checkout_copy(Path(scratch) / mutation.name)
            apply(mutation, root)
            code, failed, why, seconds = run_tier(root, mutation.tests)
            caught = code == 1 and bool(failed)
            ok &= caught
            print(f"{mutation.name}: {mutation.what}: {'CAUGHT' if caught else 'SURVIVED'} (exit {code}, "
                  f"{seconds:.0f} s; {len(failed)} failed or errored: {', '.join(failed) or '-'}; first: {why})",
                  flush=True)
            shutil.rmtree(root, ignore_errors=True)
    print("every mutation fails the tier" if ok else "a mutation passed the tier: the tier misses it")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
