"""`simready-physics fix PATH... [--tests A,B] [--out DIR]`: the CLI front of `fix_assets` (docs/cli.md, docs/fix.md).

Writes OUT/report.json (the verdicts as authored, each asset with its `fix` block), the HTML report with the
before/after table, and for every accepted fix OUT/<asset>.fix.usda (the override layer) and OUT/<asset>.fixed.usda
(the asset with the layer over it: validate it as a plain file). Exit code: as `validate`'s, over the verdicts the
assets have with their accepted layers (as authored where none was accepted).
"""

from __future__ import annotations

from pathlib import Path

DEFAULT_OUT = "simready-fix"


def add_parser(sub) -> None:
    from ..engines import DEFAULT_ENGINE, engines_help

    fix = sub.add_parser(
        "fix", help="propose a drive-tuning layer for the driven-joint failures drive values can fix, and prove it",
        usage="%(prog)s PATH... [--tests A,B] [--out DIR] [--engine NAME] [--config FILE]... [--set TEST.KEY=VALUE]...\n"
        "       [--frequency HZ] [--damping-ratio ZETA] [--force-margin M] [--rounds N] [--add-drives] [--raise-max-force]\n"
        "       [--shape-inertia] [-j N] [--in-process] [--quiet] [--debug]",
        description="Validate, measure the joints through the engine, propose stiffness, damping, maxForce and the per-axis "
        "velocity-limit spelling where the failures call for them, re-run the tests with the proposal, and keep "
        "only a layer that fixes something and breaks nothing that passed. The asset is never written. See docs/fix.md.",
    )
    fix.add_argument("paths", nargs="+", metavar="PATH", help=".usd/.usda/.usdc/.usdz file or a folder of them")
    fix.add_argument("--tests", help="comma-separated test names (default: all); the ones re-run to prove the layer")
    fix.add_argument("--engine", default=DEFAULT_ENGINE, metavar="NAME", help=engines_help())
    fix.add_argument("--config", action="append", default=[], metavar="FILE", help="TOML config file (repeatable)")
    fix.add_argument("--set", action="append", default=[], metavar="TEST.KEY=VALUE", help="override one setting")
    fix.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"report and layer folder (default: ./{DEFAULT_OUT})")
    fix.add_argument("--frequency", type=float, metavar="HZ", help="target natural frequency f_n of a tuned drive (default 5 Hz)")
    fix.add_argument("--damping-ratio", type=float, metavar="ZETA", help="target damping ratio (default 1.0, critical)")
    fix.add_argument("--force-margin", type=float, metavar="M", help="maxForce margin over the peak load (default 1.5)")
    fix.add_argument("--rounds", type=int, metavar="N", help="re-runs at most (default 3)")
    fix.add_argument("--add-drives", action="store_true",
                     help="give joints with no drive (or zero gains) a first drive sized from the measured inertia and "
                          "gravity load, its maxForce the rated effort where the asset carries one, and prove it by the re-run")
    fix.add_argument("--raise-max-force", action="store_true",
                     help="let maxForce exceed the authored value (the actuator's rating); by default a drive that needs "
                          "more is reported as 'needs X, rated Y'")
    fix.add_argument("--shape-inertia", action="store_true",
                     help="instead of drive values: author the inertia each body's colliders give where the plausibility "
                          "checks find one its shape contradicts (INERTIA_PLACEHOLDER, INERTIA_TRIANGLE), proved by the "
                          "re-run (docs/plausibility.md)")
    fix.add_argument("--jobs", "-j", type=int, metavar="N", help="assets at once (default: number of CPU cores)")
    fix.add_argument("--in-process", action="store_true", help="run in this process (no crash isolation)")
    fix.add_argument("--quiet", action="store_true", help="no progress and no table")
    fix.add_argument("--debug", action="store_true", help="show Python tracebacks")
    from ..reports.path_privacy import add_arguments as add_path_arguments

    add_path_arguments(fix)  # --relative-to ROOT, --absolute-paths: the report, the HTML and the layers' headers


def run(args, console) -> int:
    """The fix command; a problem with its command line is a UsageError (exit code 2, said by the CLI)."""
    from ..core.config import ValidationConfig
    from ..core.plugin import UnknownTestError
    from ..core.status import ExitCode, UsageError
    from ..engines import HEADLESS_ENGINES, EngineUnavailable, engine_class, engine_settings
    from ..physics_tests import default_registry
    from ..reports.command_line import say_notices
    from ..reports.pipe_console import PipeConsole
    from ..run.inputs import InputError, path_problems
    from .pipeline import fix_assets
    from .targets import FixTargets

    try:
        config = ValidationConfig.load(default_registry(), args.config, args.set, engine_settings())
        tests = [t.strip() for t in args.tests.split(",") if t.strip()] if args.tests else None
        default_registry().select(tests)
        engine_class(args.engine)
    except (UnknownTestError, EngineUnavailable) as exc:
        raise UsageError(str(exc)) from None
    if args.engine not in HEADLESS_ENGINES:
        raise UsageError(f"fix runs on a headless engine ({', '.join(HEADLESS_ENGINES)}); in Isaac Sim use the panel's "
                         "Propose fix")
    say_notices(config, console)
    problems = path_problems(args.paths)
    if problems:
        raise UsageError("; ".join(problems))
    targets = FixTargets()
    for name, attr, low in (("frequency", "natural_frequency_hz", 0.0), ("damping_ratio", "damping_ratio", 0.0),
                            ("force_margin", "force_margin", 1.0), ("rounds", "max_rounds", 1)):
        value = getattr(args, name)
        if value is not None:
            if not value > low and not (name == "rounds" and value >= low):
                raise UsageError(f"--{name.replace('_', '-')} must be > {low}")
            setattr(targets, attr, value)
    targets.add_drives, targets.raise_max_force = args.add_drives, args.raise_max_force
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    out = Path(args.out)  # never the asset's folder, never over a file fix did not write, one run per folder
    from ..run.output_paths import claim_outputs, fix_output_conflicts
    from .outcome import written_by_fix

    problem = fix_output_conflicts(args.paths, out, written_by_fix) or claim_outputs(args.paths, out, {})
    if problem:
        raise UsageError(problem)
    progress = None
    if not args.quiet:
        from ..reports.progress import BatchProgress

        progress = BatchProgress(console, per_test_lines=False)
    say = (lambda text: None) if args.quiet else (lambda text: console.print(f"[bold]fix:[/] {text}", highlight=False))
    from ..reports.path_privacy import privacy_of

    privacy = privacy_of(args, args.paths, out)  # inputs named relative to the current folder unless --absolute-paths
    try:
        if args.shape_inertia:
            from .shape_inertia import fix_shape_inertia

            report = fix_shape_inertia(args.paths, tests, config, args.engine, out, jobs=args.jobs, progress=progress)
        else:
            report = fix_assets(args.paths, tests, config, args.engine, out, jobs=args.jobs, targets=targets,
                                progress=progress, in_process=args.in_process, say=say, privacy=privacy)
    except InputError as exc:
        raise UsageError(str(exc)) from None
    written = write_reports(report, out, console, privacy)
    if not args.quiet:
        from ..reports.fix_table import print_fix_table

        print_fix_table(report, PipeConsole())
        for label, path in written:
            console.print(f"{label}: {path}", highlight=False, soft_wrap=True)
    code = exit_code(report)
    if all(label in dict(written) for label in ("JSON", "HTML")):
        return int(code)
    console.print(f"[bold red]error:[/] a report could not be written (said above): fix exits {int(ExitCode.ERROR)} "
                  "whatever its verdicts", highlight=False, soft_wrap=True)
    return int(ExitCode.ERROR)


def write_reports(report, out: Path, console, privacy=None) -> list[tuple[str, Path]]:
    """The JSON and HTML reports; one not written is said as an error (and the run exits 3)."""
    from ..reports.json_report import write_json_report
    from ..reports.safe_text import escape

    written = []
    try:
        written.append(("JSON", write_json_report(report, out / "report.json", privacy)))
    except OSError as exc:
        console.print(f"[bold red]error:[/] cannot write {out / 'report.json'}: {exc.strerror or exc}")
    try:
        from ..reports.html import write_html_report

        from ..physics_tests import default_registry

        written.append(("HTML", write_html_report(report, out, default_registry(), privacy)))
    except Exception as exc:  # noqa: BLE001 - the JSON report is already safe on disk
        console.print(f"[bold red]error:[/] HTML report not written: {escape(str(exc))}", highlight=False, soft_wrap=True)
    for asset in report.assets:
        if asset.fix is not None and asset.fix.layer:
            written.append(("fix layer", Path(asset.fix.layer)))
    return written


def exit_code(report) -> int:
    """validate's rule over the verdicts with the accepted layers (as authored where none was accepted); and 1 while
    a test still SKIPs for joints with no drive (a fix run that leaves a robot unjudged has not done its job)."""
    from ..core.status import ExitCode, Status, exit_code_for
    from ..physics_tests import default_registry

    registry = default_registry()
    statuses = []
    unjudged = False
    for asset in report.assets:
        fix = asset.fix
        accepted = fix is not None and fix.accepted
        after = {t.test: (t.after or t.before) for t in fix.tests} if accepted else {}
        statuses += list(after.values()) if accepted else [t.status for t in asset.tests]
        codes_after = {t.test: t.after_code for t in fix.tests} if accepted else {}
        for result in asset.tests:  # by codes: does a SKIP for joints with no drive remain?
            rules = registry.fix_rules_of(result.name)
            drive_less = rules.fix_flags(result) == ["--add-drives"]  # as authored
            if result.name in after:  # with the accepted layer: still skipped for the same reason
                drive_less &= after[result.name] == Status.SKIP and codes_after.get(result.name) in rules.adds_drives_on
            unjudged |= drive_less
    code = exit_code_for(statuses)
    return int(ExitCode.FAILED) if unjudged and code < ExitCode.FAILED else int(code)
