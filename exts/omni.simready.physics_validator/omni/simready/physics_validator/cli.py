"""`simready-physics`: the headless command line.

    simready-physics validate PATH... [--tests a,b] [--engine physx|sapien|newton|kit] [--compare E1,E2]
                                      [--config F] [--set k=v] [--out DIR] [--json F] [--junit F] [-j N]
                                      [--fail-on-skip] [--no-video] [--no-html] [--quiet] [--debug] ...
    simready-physics list-tests
    simready-physics show-config [--config F] [--set k=v]
    simready-physics fix PATH... [--tests a,b] [--out DIR] (a drive-tuning layer, proved by a re-run: docs/fix.md)

Exit codes: 0 nothing failed, 1 any FAIL or PRECHECK_FAILURE (or SKIP with --fail-on-skip), 2 usage error,
3 any ERROR. No Python traceback reaches the user unless --debug. Every flag: docs/cli.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import warnings
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from .reports.pipe_console import PipeConsole, closed_pipe_is_done
from .core.status import ExitCode, Status, exit_code_for

DEFAULT_OUT = "simready-report"
DISTRIBUTION = "omni-simready-physics-validator"
# What each engine name means, for --help (the names themselves come from engines.engine_names()).
ENGINE_HELP = {
    "physx": "NVIDIA PhysX 5 through ovphysx, on the asset's own USD",
    "sapien": "PhysX 5 through SAPIEN ([sapien] extra)",
    "newton": "Newton on Warp, CPU ([newton] extra)",
    "kit": "omni.physx inside Isaac Sim only (see docs/kit-extension.md)",
}
KIT_ONLY = "the kit engine runs inside Isaac Sim; see docs/kit-extension.md"
# The [video] extra, by import name (what is missing is named in the notice).
VIDEO_MODULES = {"pyvista": "pyvista", "vtkmodules": "vtk", "imageio_ffmpeg": "imageio-ffmpeg", "PIL": "pillow"}


def default_engine() -> str:
    from .engines import DEFAULT_ENGINE

    return DEFAULT_ENGINE


def engines_help() -> str:
    """'physx (default): ..., sapien: ..., newton: ..., kit: ...' in the order of engines.engine_names()."""
    from .engines import engine_names

    default = default_engine()
    parts = []
    for name in engine_names():
        label = f"{name} (default)" if name == default else name
        parts.append(f"{label}: {ENGINE_HELP[name]}" if name in ENGINE_HELP else label)
    return "physics engine. " + "; ".join(parts)


def build_parser() -> argparse.ArgumentParser:
    from .core.config import ValidationConfig
    from .physics_tests import default_registry

    example = ValidationConfig.defaults(default_registry()).example_setting()
    parser = argparse.ArgumentParser(
        prog="simready-physics",
        description="Physics-conformance tests for simulation-ready USD assets.",
        epilog="Exit codes: 0 nothing failed, 1 a FAIL or PRECHECK_FAILURE (or a SKIP with --fail-on-skip), "
        "2 usage error, 3 an ERROR or an interrupted run. Every command and flag: docs/cli.md.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command")

    validate = sub.add_parser(
        "validate", help="run the tests on USD files or folders",
        usage="%(prog)s PATH... [--tests A,B] [--engine NAME | --compare E1,E2] [--config FILE]... [--set TEST.KEY=VALUE]...\n"
        "       [--out DIR] [--json FILE] [--junit FILE] [--format simready] [-j N] [--executor local|ray] [--changed-only]\n"
        "       [--fail-on-skip] [--no-video] [--no-html] [--in-process] [--watchdog S] [--max-test-seconds S]\n"
        "       [--progress tests|assets] [--quiet] [--debug]",
    )
    validate.add_argument("paths", nargs="+", metavar="PATH", help=".usd/.usda/.usdc/.usdz file or a folder of them")
    validate.add_argument("--tests", help="comma-separated test names or feature families, e.g. FET022 (default: all); "
                                          "see list-tests")
    validate.add_argument("--engine", default=default_engine(), metavar="NAME", help=engines_help())
    validate.add_argument("--compare", metavar="E1,E2",
                          help="run the assets on each engine and compare verdicts, e.g. physx,newton")
    validate.add_argument("--config", action="append", default=[], metavar="FILE", help="TOML config file (repeatable)")
    validate.add_argument(
        "--set", action="append", default=[], metavar="TEST.KEY=VALUE", help=f"override one setting, e.g. {example}"
    )
    validate.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"report folder (default: ./{DEFAULT_OUT})")
    validate.add_argument("--json", metavar="FILE", help="JSON report path (default: OUT/report.json)")
    validate.add_argument("--junit", metavar="FILE", help="JUnit XML path (default: OUT/junit.xml)")
    validate.add_argument(
        "--format", action="append", default=[], choices=("simready",), metavar="simready",
        help="also write each verdict as NVIDIA SimReady benchmark result.json files under OUT/results/ (docs/cli.md)",
    )
    validate.add_argument("--no-video", action="store_true", help="do not record videos")
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

    from .fix.command import add_parser as add_fix_parser

    add_fix_parser(sub, engines_help(), default_engine())
    sub.add_parser("list-tests", help="list the registered tests with version, features and defaults")
    show = sub.add_parser(
        "show-config", help="print the effective configuration as TOML",
        description="Print the configuration a validate run with the same --config/--set would use, as TOML "
        "(the defaults of every test and of [run], then the overrides in order).",
    )
    show.add_argument("--config", action="append", default=[], metavar="FILE",
                      help="TOML file of overrides, sections are test names and run (repeatable, applied in order)")
    show.add_argument("--set", action="append", default=[], metavar="TEST.KEY=VALUE",
                      help=f"override one setting, e.g. {example} (repeatable, after the files)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """The console script; a reader closing the pipe early is no error (reports.pipe_console.closed_pipe_is_done)."""
    return closed_pipe_is_done(_main, argv)


def _main(argv: list[str] | None) -> int:
    warnings.filterwarnings("ignore")
    parser = build_parser()
    args = parser.parse_args(argv)
    console = Console(stderr=True, soft_wrap=True)
    if args.version:
        from ._version import __version__

        print(__version__)
        return ExitCode.OK
    if args.command is None:
        parser.print_help()
        return ExitCode.USAGE
    try:
        if args.command == "list-tests":
            return _list_tests()
        if args.command == "show-config":
            return _show_config(args)
        if args.command == "fix":
            from .fix.command import run as run_fix

            return run_fix(args, console, _load_config, _usage_error)
        return _validate(args, console)
    except KeyboardInterrupt:
        console.print("[bold yellow]interrupted[/]")
        return ExitCode.ERROR
    except BrokenPipeError:
        raise  # the reader closed the pipe: main() ends quietly
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one clear line, no traceback
        if getattr(args, "debug", False):
            raise
        console.print(f"[bold red]error:[/] {escape(f'{type(exc).__name__}: {exc}')} (run with --debug for the traceback)",
                      highlight=False, soft_wrap=True)
        return ExitCode.ERROR


def _load_config(args):
    from .core.config import ValidationConfig
    from .physics_tests import default_registry

    config = ValidationConfig.defaults(default_registry())
    for path in args.config:
        config.apply_file(path)
    config.apply_set(args.set)
    return config


def _usage_error(console: Console, message: str) -> int:
    console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)  # [extras] are text, not markup
    return int(ExitCode.USAGE)


def _validate(args, console: Console) -> int:
    from .core.config import ConfigError
    from .core.plugin import UnknownTestError
    from .engines import EngineUnavailable, engine_class
    from .physics_tests import default_registry

    try:
        config = _load_config(args)
        tests = [t.strip() for t in args.tests.split(",") if t.strip()] if args.tests else None
        default_registry().select(tests)
        engines = parse_engines(args.compare) if args.compare else [args.engine]
        for name in engines:
            if name == "kit" and not inside_kit():
                return _usage_error(console, KIT_ONLY)
            engine_class(name)
    except (ConfigError, UnknownTestError, EngineUnavailable, ValueError) as exc:  # ValueError: --compare syntax
        return _usage_error(console, str(exc))
    _say_notices(config, console)
    from .run.inputs import path_problems

    problems = path_problems(args.paths)
    if problems:
        return _usage_error(console, "; ".join(problems))
    if args.no_video:
        config.run.video = False
    if args.in_process:
        config.run.isolate = False
    if args.watchdog is not None:
        if args.watchdog <= 0:
            return _usage_error(console, "--watchdog must be > 0 seconds")
        config.run.watchdog_seconds = args.watchdog
    if args.max_test_seconds is not None:
        if args.max_test_seconds <= 0:
            return _usage_error(console, "--max-test-seconds must be > 0 seconds")
        config.run.max_test_seconds = args.max_test_seconds

    out_dir = Path(args.out)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        probe = out_dir / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        return _usage_error(console, f"cannot write the report folder {out_dir}: {exc.strerror or exc}")

    if args.jobs is not None and args.jobs < 1:
        return _usage_error(console, "--jobs must be at least 1")
    if config.run.video:
        missing = [dist for module, dist in VIDEO_MODULES.items() if importlib.util.find_spec(module) is None]
        if missing:  # said once here, instead of a "video: not recorded" warning on every test
            config.run.video = False
            console.print(
                f"[yellow]videos are not recorded:[/] the {escape('[video]')} extra is not installed (missing "
                f"{', '.join(missing)}); "
                f"install it with: {escape(install_command('video'))}",
                highlight=False, soft_wrap=True,
            )
    from .reports.pages import plots_ahead
    from .run import validate_batch
    from .run.inputs import InputError

    reports = {}
    codes = []
    for engine in engines:
        engine_out = out_dir / engine if args.compare else out_dir
        engine_out.mkdir(parents=True, exist_ok=True)
        progress = None
        if not args.quiet:
            from .reports.progress import BatchProgress

            if args.compare:
                console.print(f"[bold]engine {engine}[/]")
            progress = BatchProgress(console, per_test_lines=None if args.progress is None else args.progress == "tests",
                                     fail_on_skip=args.fail_on_skip)
        try:
            report = validate_batch(
                args.paths, tests, config, engine, engine_out, progress=progress, debug=args.debug,
                jobs=args.jobs, executor=args.executor, ray_address=args.ray_address, changed_only=args.changed_only,
                pages=None if args.no_html else plots_ahead(engine_out / "html"),  # plots drawn by each test's worker
            )
        except InputError as exc:
            return _usage_error(console, str(exc))
        reports[engine] = report
        # With --compare each engine's reports go to OUT/<engine>/ (explicit --json/--junit paths apply to one engine only).
        json_path = Path(args.json) if args.json and not args.compare else engine_out / "report.json"
        junit_path = Path(args.junit) if args.junit and not args.compare else engine_out / "junit.xml"
        written = _write_reports(report, json_path, junit_path, None if args.no_html else engine_out, console)
        if "simready" in args.format:
            written += _write_simready(report, engine_out, console)
        if not args.quiet and not args.compare:
            from .reports.console import print_summary

            print_summary(report, PipeConsole(), fail_on_skip=args.fail_on_skip, registry=default_registry())
            from .reports.readback_view import print_readback

            print_readback(report, PipeConsole())
        if not args.quiet:
            for label, path in written:
                console.print(f"{label}: {path}", highlight=False, soft_wrap=True)
        code = _exit_code(report, written, args.fail_on_skip)
        skipped = sum(1 for r in report.all_results() if r.status == Status.SKIP)
        if args.fail_on_skip and skipped:
            from .reports.console import plural

            console.print(f"--fail-on-skip: {plural(skipped, 'test')} SKIP (nothing validated): not a pass", highlight=False)
        codes.append(code)
    if args.compare:
        _write_comparison(reports, out_dir, args, console)
    return int(max(codes))


def parse_engines(text: str) -> list[str]:
    """'physx,newton' -> ['physx', 'newton']; raises ValueError for fewer than two or repeated names."""
    from .engines import engine_names

    engines = [e.strip() for e in text.split(",") if e.strip()]
    if len(engines) < 2 or len(set(engines)) != len(engines):
        raise ValueError(f"--compare needs two or more different engines, e.g. physx,newton (got '{text}')")
    unknown = [e for e in engines if e not in engine_names()]
    if unknown:
        raise ValueError(f"--compare: unknown engine {', '.join(unknown)} (known: {', '.join(engine_names())})")
    return engines


def inside_kit() -> bool:
    """True inside Isaac Sim / Kit (its carb module is importable); the kit engine needs it."""
    try:
        return importlib.util.find_spec("carb") is not None
    except (ImportError, ValueError):
        return False


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


def _exit_code(report, written, fail_on_skip: bool = False) -> int:
    """The rule for every run: worst verdict; an incomplete run is an ERROR; a report CI cannot read is never green."""
    code = exit_code_for((r.status for r in report.all_results()), fail_on_skip=fail_on_skip)
    if not report.complete:  # interrupted: exit 3 even when a FAIL was already seen (README, docs/cli.md)
        code = max(code, ExitCode.ERROR)
    if not any(label == "JSON" for label, _ in written) or not any(label == "JUnit" for label, _ in written):
        code = max(code, ExitCode.USAGE)
    return int(code)


def _write_comparison(reports: dict, out_dir: Path, args, console: Console) -> None:
    """--compare: the verdicts of every engine side by side (a disagreement alone does not fail the run)."""
    from .core.comparison import compare_reports
    from .physics_tests import default_registry
    from .reports.comparison_report import print_comparison, write_compare_html, write_compare_json

    comparison = compare_reports(reports, default_registry())
    written = [("compare JSON", write_compare_json(comparison, out_dir / "compare.json"))]
    if not args.no_html:
        written.append(("compare HTML", write_compare_html(comparison, out_dir)))
    if not args.quiet:
        print_comparison(comparison, PipeConsole())
        for label, path in written:
            console.print(f"{label}: {path}")


def _write_reports(report, json_path: Path, junit_path: Path, html_dir: Path | None, console: Console):
    """JSON and JUnit (each failure named, never raised), then HTML when `html_dir` is given."""
    from .physics_tests import default_registry
    from .reports.json_report import write_json_report
    from .reports.junit import write_junit_report

    written = []
    for label, writer, path in (("JSON", write_json_report, json_path), ("JUnit", write_junit_report, junit_path)):
        try:
            written.append((label, writer(report, path)))
        except OSError as exc:
            console.print(f"[bold red]error:[/] {escape(f'cannot write the {label} report {path}: {exc.strerror or exc}')}",
                          highlight=False, soft_wrap=True)
    if html_dir is not None:
        try:
            from .reports.html import write_html_report
        except ImportError as exc:  # jinja2/matplotlib are base dependencies: a broken install, said once
            console.print(f"[yellow]warning:[/] HTML report not written: {escape(str(exc))} (reinstall: "
                          f"{escape(install_command())})",
                          highlight=False, soft_wrap=True)
        else:
            try:
                written.append(("HTML", write_html_report(report, html_dir, default_registry())))
            except Exception as exc:  # noqa: BLE001 - the JSON/JUnit reports are already safe on disk
                console.print(f"[yellow]warning:[/] HTML report not written: {exc}")
    return written


def _write_simready(report, out_dir: Path, console: Console) -> list:
    """--format simready: the per-test result.json files NVIDIA's SimReady reporter reads (reports/simready_results.py)."""
    from .physics_tests import default_registry
    from .reports.simready_results import write_simready_results

    try:
        return [("SimReady results", write_simready_results(report, out_dir, default_registry()))]
    except OSError as exc:
        console.print(f"[bold red]error:[/] "
                      f"{escape(f'cannot write the SimReady results under {out_dir}: {exc.strerror or exc}')}",
                      highlight=False, soft_wrap=True)
        return []


def _list_tests(console: Console | None = None) -> int:
    """One block per test (name, version, features; summary; defaults with units), wrapped to the terminal's width."""
    from .physics_tests import default_registry
    from .reports.settings import test_listing

    console = console or PipeConsole(highlight=False)
    names = set(default_registry().names())
    for line in test_listing(default_registry(), max(40, console.width)):
        head = line.split(" ", 1)[0]
        console.print(f"[bold]{escape(head)}[/]{escape(line[len(head):])}" if head in names else escape(line), soft_wrap=True)
    return ExitCode.OK


def _show_config(args) -> int:
    from .core.config import ConfigError
    from .reports.settings import config_toml

    console = Console(stderr=True, soft_wrap=True)
    try:
        config = _load_config(args)
    except ConfigError as exc:
        return _usage_error(console, str(exc))
    _say_notices(config, console)
    print(config_toml(config))
    return ExitCode.OK


def _say_notices(config, console: Console) -> None:
    """Renamed settings read under their old name: said once each, on stderr."""
    for notice in config.notices:
        console.print(f"[yellow]notice:[/] {escape(notice)}", highlight=False, soft_wrap=True)


if __name__ == "__main__":
    sys.exit(main())
