"""`simready-physics validate PATH... [--tests A,B] [--engine NAME | --compare E1,E2] ...`: the verdicts of the
assets, written as JSON, JUnit and HTML (and NVIDIA's result.json files with --format simready), printed as a summary.

Checks the command line before anything runs (a problem is a UsageError: exit code 2), runs `run.validate_batch` once
per engine, writes the reports (a report that cannot be written is said, never raised), and exits with the worst
verdict (docs/cli.md).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from rich.console import Console

from ..core import out_writer
from ..core.media import MEDIA_CHOICES
from ..core.status import ExitCode, Status, UsageError, exit_code_for
from ..reports.command_line import say_error, say_notice, say_notices, say_warning
from ..reports.pipe_console import PipeConsole
from ..reports.safe_text import escape  # control characters in names escaped too

DEFAULT_OUT = "simready-report"
DISTRIBUTION = "omni-simready-physics-validator"
# The [video] extra, by import name (what is missing is named in the notice).
VIDEO_MODULES = {"pyvista": "pyvista", "vtkmodules": "vtk", "imageio_ffmpeg": "imageio-ffmpeg", "PIL": "pillow"}


def example_setting() -> str:
    """A `test.key=value` assignment for help texts, from the config itself (no test named here)."""
    from ..core.config import ValidationConfig
    from ..physics_tests import default_registry

    return ValidationConfig.defaults(default_registry()).example_setting()


def add_parser(sub) -> None:
    from ..engines import DEFAULT_ENGINE, engines_help
    from ..reports.path_privacy import add_arguments as add_path_arguments

    validate = sub.add_parser(
        "validate", help="run the tests on USD files or folders",
        usage="%(prog)s PATH... [--tests A,B] [--engine NAME | --compare E1,E2] [--config FILE]... [--set TEST.KEY=VALUE]...\n"
        "       [--out DIR] [--json FILE] [--junit FILE] [--format simready [--simready-profile ID@VERSION]\n"
        "       [--record-beside-asset]] [-j N] [--executor local|ray] [--changed-only]\n"
        "       [--fail-on-skip] [--no-video] [--media replay|failing|all] [--no-html] [--in-process] [--watchdog S]\n"
        "       [--max-test-seconds S]"
        " [--progress tests|assets] [--quiet] [--debug]",
    )
    validate.add_argument("paths", nargs="+", metavar="PATH", help=".usd/.usda/.usdc/.usdz file or a folder of them")
    validate.add_argument("--tests", help="comma-separated test names, features or feature families, e.g. FET_022 or "
                                          "FET_028_ISAAC (default: all; a pre-2026.8 feature name such as "
                                          "FET022_DRIVEN_JOINTS_PHYSX is read as its new name, with a notice); see list-tests")
    validate.add_argument("--engine", default=DEFAULT_ENGINE, metavar="NAME", help=engines_help())
    validate.add_argument("--compare", metavar="E1,E2",
                          help="run the assets on each engine and compare verdicts, e.g. physx,newton")
    validate.add_argument("--config", action="append", default=[], metavar="FILE", help="TOML config file (repeatable)")
    validate.add_argument(
        "--set", action="append", default=[], metavar="TEST.KEY=VALUE", help=f"override one setting, e.g. {example_setting()}"
    )
    validate.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"report folder (default: ./{DEFAULT_OUT})")
    validate.add_argument("--json", metavar="FILE", help="JSON report path (default: OUT/report.json)")
    validate.add_argument("--junit", metavar="FILE", help="JUnit XML path (default: OUT/junit.xml)")
    validate.add_argument(
        "--format", action="append", default=[], choices=("simready",), metavar="simready",
        help="also write each verdict as NVIDIA SimReady benchmark result.json files under OUT/results/ (docs/cli.md)",
    )
    validate.add_argument(
        "--simready-profile", metavar="ID@VERSION",
        help="with --format simready: the SimReady profile NVIDIA's validation record declares, e.g. Robotics-Prop@3.2.0 "
             "(default: the one of the record already beside the asset, else none)",
    )
    validate.add_argument(
        "--record-beside-asset", action="store_true",
        help="with --format simready: also write NVIDIA's validation record beside each asset, in <asset folder>/.metadata/ "
             "(the only write outside OUT: links refused, the asset never touched; docs/cli.md)",
    )
    add_path_arguments(validate)  # --relative-to ROOT, --absolute-paths (reports/path_privacy.py)
    validate.add_argument("--no-video", action="store_true", help="record nothing: no 3D replay, no video")
    validate.add_argument(
        "--media", choices=MEDIA_CHOICES,
        help="what is drawn beside every test's 3D replay: replay (default: plots for FAIL, WARN, ERROR and PASS with "
             "warnings, no video), failing (their mp4 videos too) or all (videos and plots for every test)",
    )
    validate.add_argument("--no-html", action="store_true", help="do not write the HTML report")
    validate.add_argument("--in-process", action="store_true", help="run in this process (no crash isolation; faster)")
    validate.add_argument(
        "--watchdog", type=float, metavar="SECONDS", help="a test with no physics progress for this long is a hang (default 120)"
    )
    validate.add_argument(
        "--max-test-seconds", type=float, metavar="SECONDS", help="wall-clock cap per test even while it progresses (default "
                                                                  "3600)"
    )
    validate.add_argument("--quiet", action="store_true", help="no progress and no summary")
    validate.add_argument(
        "--progress", choices=("tests", "assets"),
        help="progress lines: one per finished test, or one per finished asset (default: tests on a terminal, assets in a log or "
             "pipe)",
    )
    validate.add_argument(
        "--fail-on-skip", action="store_true",
        help="exit 1 when any test is SKIP (it could not validate anything), for CI gates that must not pass an unexercised "
             "asset",
    )
    validate.add_argument("--debug", action="store_true", help="show Python tracebacks")
    validate.add_argument("--jobs", "-j", type=int, metavar="N", help="assets validated at once (default: number of CPU cores)")
    validate.add_argument("--executor", default="local", choices=("local", "ray"),
                          help="where assets run: local processes or a Ray cluster")
    validate.add_argument("--ray-address", metavar="ADDR",
                          help="Ray cluster to use with --executor ray (default: a private local instance)")
    validate.add_argument(
        "--changed-only", "--resume", dest="changed_only", action="store_true",
        help="reuse verdicts cached in OUT for assets, layers, tests and settings that did not change (also resumes an "
             "interrupted run)",
    )


def load_config(args, console: Console | None = None):
    """The config of `--config FILE`... then `--set`... (a ConfigError is a usage error); renamed settings said."""
    from ..core.config import ValidationConfig
    from ..physics_tests import default_registry

    from ..engines import engine_settings

    config = ValidationConfig.load(default_registry(), args.config, args.set, engine_settings())
    if console is not None:
        say_notices(config, console)
    return config


def run(args, console: Console) -> int:
    from ..core.config import ConfigError
    from ..core.plugin import UnknownTestError
    from ..engines import EngineUnavailable, check_runs_here
    from ..physics_tests import default_registry

    try:
        config = load_config(args)
        tests = [t.strip() for t in args.tests.split(",") if t.strip()] if args.tests else None
        default_registry().select(tests)
        legacy = default_registry().legacy_notices(tests)  # pre-2026.8 feature names, read as their new names
        engines = parse_engines(args.compare) if args.compare else [args.engine]
        for name in engines:
            check_runs_here(name)
        profile = record_options(args)
    except (UnknownTestError, EngineUnavailable, ValueError) as exc:  # ValueError: --compare syntax (and ConfigError)
        raise UsageError(str(exc)) from None
    say_notices(config, console)
    for notice in legacy:
        say_notice(console, notice)
    from ..run.inputs import path_problems

    problems = path_problems(args.paths)
    if problems:
        raise UsageError("; ".join(problems))
    if args.no_video:
        config.run.video = False
    if args.media:
        config.run.media = args.media
    if args.in_process:
        config.run.isolate = False
    for flag, key, value in (("--watchdog", "watchdog_seconds", args.watchdog),
                             ("--max-test-seconds", "max_test_seconds", args.max_test_seconds)):
        try:  # the run settings' own rules: > 0, finite, at most 1e6 s
            config.apply({"run": {key: value}} if value is not None else {}, origin=flag)
        except ConfigError as exc:
            raise UsageError(str(exc)) from None
    from ..run.output_paths import claim_outputs, validate_outputs

    out_dir = Path(args.out)  # outputs distinct, none an input, writable, OUT this run's alone (run/output_paths.py)
    problem = claim_outputs(args.paths, out_dir, validate_outputs(args, out_dir))
    if problem:
        raise UsageError(problem)

    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if config.run.video and config.run.media != "replay":  # the 3D replay needs no [video] extra; a video does
        missing = [dist for module, dist in VIDEO_MODULES.items() if importlib.util.find_spec(module) is None]
        if missing:  # said once here, instead of a "video: not written" warning on every test
            config.run.media = "replay"
            console.print(
                f"[yellow]videos are not drawn (3D replays are):[/] the {escape('[video]')} extra is not installed "
                f"(missing {', '.join(missing)}); "
                f"install it with: {escape(install_command('video'))}",
                highlight=False, soft_wrap=True,
            )
    from ..reports.pages import plots_ahead
    from ..reports.path_privacy import privacy_of
    from ..run import validate_batch
    from ..run.inputs import InputError

    reports = {}
    codes = []
    for engine in engines:
        engine_out = out_dir / engine if args.compare else out_dir
        out_writer.folder(engine_out)  # OUT/<engine> with --compare: a real folder (core.out_writer)
        progress = None
        if not args.quiet:
            from ..reports.progress import BatchProgress

            if args.compare:
                console.print(f"[bold]engine {engine}[/]")
            progress = BatchProgress(console, per_test_lines=None if args.progress is None else args.progress == "tests",
                                     fail_on_skip=args.fail_on_skip)
        try:
            report = validate_batch(
                args.paths, tests, config, engine, engine_out, progress=progress, debug=args.debug,
                jobs=args.jobs, executor=args.executor, ray_address=args.ray_address, changed_only=args.changed_only,
                pages=None if args.no_html else plots_ahead(engine_out / "html", config.run.media),  # drawn in the workers
            )
        except InputError as exc:
            raise UsageError(str(exc)) from None
        reports[engine] = report
        # With --compare each engine's reports go to OUT/<engine>/ (explicit --json/--junit paths apply to one engine only).
        json_path = Path(args.json) if args.json and not args.compare else engine_out / "report.json"
        junit_path = Path(args.junit) if args.junit and not args.compare else engine_out / "junit.xml"
        privacy = privacy_of(args, [a.path for a in report.assets], engine_out)  # --relative-to, --format simready
        lost: list[str] = []  # the reports asked for and not written: said, and the run exits 3
        written = write_reports(report, json_path, junit_path, None if args.no_html else engine_out, console, privacy,
                                config.run.media, lost)
        if "simready" in args.format:
            written += write_simready(report, engine_out, console, privacy, profile, args.record_beside_asset, lost)
        if not args.quiet and not args.compare:
            from ..reports.console import print_summary

            print_summary(report, PipeConsole(), fail_on_skip=args.fail_on_skip, registry=default_registry())
            from ..reports.readback_view import print_readback

            print_readback(report, PipeConsole())
            from ..reports.plausibility_view import print_plausibility

            print_plausibility(report, PipeConsole())
        if not args.quiet:
            for label, path in written:
                console.print(f"{label}: {path}", highlight=False, soft_wrap=True)
        code = exit_code(report, written, args.fail_on_skip, lost)
        if lost:
            say_error(console, f"{len(lost)} of the reports asked for could not be written (said above): the run exits "
                               f"{int(ExitCode.ERROR)} whatever its verdicts")
        skipped = sum(1 for r in report.all_results() if r.status == Status.SKIP)
        if args.fail_on_skip and skipped:
            from ..reports.console import plural

            console.print(f"--fail-on-skip: {plural(skipped, 'test')} SKIP (nothing validated): not a pass", highlight=False)
        codes.append(code)
    if args.compare:
        write_comparison(reports, out_dir, args, console)
    return int(max(codes))


def parse_engines(text: str) -> list[str]:
    """'physx,newton' -> ['physx', 'newton']; raises ValueError for fewer than two or repeated names."""
    from ..engines import engine_names

    engines = [e.strip() for e in text.split(",") if e.strip()]
    if len(engines) < 2 or len(set(engines)) != len(engines):
        raise ValueError(f"--compare needs two or more different engines, e.g. physx,newton (got '{text}')")
    unknown = [e for e in engines if e not in engine_names()]
    if unknown:
        raise ValueError(f"--compare: unknown engine {', '.join(unknown)} (known: {', '.join(engine_names())})")
    return engines


def install_command(extra: str = "") -> str:
    """The pip command that (re)installs this package with `extra`: from its checkout's folder when it was
    installed from one, else by distribution name."""
    import json
    from importlib import metadata
    from urllib.parse import unquote, urlparse

    target = DISTRIBUTION
    try:
        direct = json.loads(metadata.distribution(DISTRIBUTION).read_text("direct_url.json") or "{}")
        url = urlparse(direct.get("url", ""))
        if url.scheme == "file" and Path(unquote(url.path)).is_dir():
            editable = "-e " if direct.get("dir_info", {}).get("editable") else ""
            target = f"{editable}'{unquote(url.path)}{f'[{extra}]' if extra else ''}'"
            return f"pip install {target}"
    except (metadata.PackageNotFoundError, ValueError, OSError):
        pass
    return f"pip install '{target}[{extra}]'" if extra else f"pip install {target}"


def exit_code(report, written, fail_on_skip: bool = False, lost=()) -> int:
    """The rule for every run: worst verdict; an incomplete run is an ERROR; so is a report asked for and not written
    (`lost`; the JSON and JUnit reports always are): CI must never read a green exit over a report that is not there."""
    code = exit_code_for((r.status for r in report.all_results()), fail_on_skip=fail_on_skip)
    if not report.complete:  # interrupted: exit 3 even when a FAIL was already seen (README, docs/cli.md)
        code = max(code, ExitCode.ERROR)
    if lost or not any(label == "JSON" for label, _ in written) or not any(label == "JUnit" for label, _ in written):
        code = max(code, ExitCode.ERROR)
    return int(code)


def write_comparison(reports: dict, out_dir: Path, args, console: Console) -> None:
    """--compare: the verdicts of every engine side by side (a disagreement alone does not fail the run)."""
    from ..core.comparison import compare_reports
    from ..physics_tests import default_registry
    from ..reports.comparison_report import print_comparison, write_compare_html, write_compare_json
    from ..reports.path_privacy import privacy_of

    comparison = compare_reports(reports, default_registry())
    privacy = privacy_of(args, [a.path for r in reports.values() for a in r.assets], out_dir)  # --relative-to
    written = [("compare JSON", write_compare_json(comparison, out_dir / "compare.json", privacy))]
    if not args.no_html:
        written.append(("compare HTML", write_compare_html(comparison, out_dir, privacy)))
    if not args.quiet:
        print_comparison(comparison, PipeConsole())
        for label, path in written:
            console.print(f"{label}: {path}")


def write_reports(report, json_path: Path, junit_path: Path, html_dir: Path | None, console: Console,
                  privacy=None, media: str = "all", lost: list[str] | None = None):
    """JSON and JUnit (each failure named, never raised), then HTML when `html_dir` is given; `privacy`:
    reports.path_privacy; `media`: whose plots the HTML draws (core.media). A report not written is said as an error
    and added to `lost` (the run then exits 3)."""
    lost = [] if lost is None else lost
    from ..physics_tests import default_registry
    from ..reports.json_report import write_json_report
    from ..reports.junit import write_junit_report

    written = []
    for label, writer, path in (("JSON", write_json_report, json_path), ("JUnit", write_junit_report, junit_path)):
        try:
            written.append((label, writer(report, path, privacy)))
        except OSError as exc:
            lost.append(f"the {label} report {path}")
            say_error(console, f"cannot write the {label} report {path}: {exc.strerror or exc}")
    if html_dir is not None:
        try:
            from ..reports.html import write_html_report
        except ImportError as exc:  # jinja2/matplotlib are base dependencies: a broken install, said once
            lost.append("the HTML report")
            say_error(console, f"HTML report not written: {exc} (reinstall: {install_command()})")
        else:
            try:
                written.append(("HTML", write_html_report(report, html_dir, default_registry(), privacy, media)))
            except Exception as exc:  # noqa: BLE001 - the JSON/JUnit reports are already safe on disk
                lost.append(f"the HTML report under {html_dir}")
                say_error(console, f"HTML report not written under {html_dir}: {exc}")
    return written


def record_options(args):
    """The validation record's profile (`--simready-profile`); both record flags need --format simready."""
    from ..reports.validation_record import Profile

    flags = [flag for flag, given in (("--simready-profile", args.simready_profile),
                                      ("--record-beside-asset", args.record_beside_asset)) if given]
    if flags and "simready" not in args.format:
        raise ValueError(f"{' and '.join(flags)} need --format simready")
    return Profile.parse(args.simready_profile)


def write_simready(report, out_dir: Path, console: Console, privacy=None, profile=None, beside: bool = False,
                   lost: list[str] | None = None) -> list:
    """--format simready: the per-test result.json files NVIDIA's SimReady reporter reads (reports/simready_results.py)
    and each asset folder's validation record (reports/validation_record.py), beside the asset too when asked. What
    could not be written is said as an error and added to `lost` (the run then exits 3)."""
    lost = [] if lost is None else lost
    from ..physics_tests import default_registry
    from ..reports.simready_results import write_simready_results
    from ..reports.validation_record import write_validation_records

    written = []
    try:
        written.append(("SimReady results", write_simready_results(report, out_dir, default_registry(), privacy)))
        records, problems, not_written = write_validation_records(report, out_dir, profile, beside)
    except OSError as exc:
        what = "validation records" if written else "results"
        lost.append(f"the SimReady {what} under {out_dir}")
        say_error(console, f"cannot write the SimReady {what} under {out_dir}: {exc.strerror or exc}")
        return written
    for problem in problems:
        say_warning(console, problem)
    for sentence in not_written:
        lost.append(sentence)
        say_error(console, sentence)
    return written + records
