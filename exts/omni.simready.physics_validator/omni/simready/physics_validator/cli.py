"""`simready-physics`: the headless command line.

    simready-physics validate PATH... [--tests a,b] [--engine physx] [--compare E1,E2] [--config F]
                                      [--set k=v] [--out DIR] [--json F] [--junit F] [--no-video] [--debug]
    simready-physics list-tests
    simready-physics show-config [--config F] [--set k=v]

Exit codes: 0 nothing failed, 1 any FAIL or PRECHECK_FAILURE, 2 usage error, 3 any ERROR.
No Python traceback reaches the user unless --debug.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

from rich.console import Console

from .core.status import ExitCode, exit_code_for

DEFAULT_OUT = "simready-report"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="simready-physics",
        description="Physics-conformance tests for simulation-ready USD assets.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    sub = parser.add_subparsers(dest="command")

    validate = sub.add_parser("validate", help="run the tests on USD files or folders")
    validate.add_argument("paths", nargs="+", metavar="PATH", help=".usd/.usda/.usdc/.usdz file or a folder of them")
    validate.add_argument("--tests", help="comma-separated test names (default: all); see list-tests")
    validate.add_argument("--engine", default="physx", help="physics engine: physx (default) or newton")
    validate.add_argument("--compare", metavar="E1,E2", help="run the assets on each engine and compare verdicts, e.g. physx,newton")
    validate.add_argument("--config", action="append", default=[], metavar="FILE", help="TOML config file (repeatable)")
    validate.add_argument(
        "--set", action="append", default=[], metavar="TEST.KEY=VALUE", help="override one setting, e.g. ground_drop.rest_tolerance=0.01"
    )
    validate.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=f"report folder (default: ./{DEFAULT_OUT})")
    validate.add_argument("--json", metavar="FILE", help="JSON report path (default: OUT/report.json)")
    validate.add_argument("--junit", metavar="FILE", help="JUnit XML path (default: OUT/junit.xml)")
    validate.add_argument("--no-video", action="store_true", help="do not record videos")
    validate.add_argument("--no-html", action="store_true", help="do not write the HTML report")
    validate.add_argument("--in-process", action="store_true", help="run in this process (no crash isolation; faster)")
    validate.add_argument(
        "--watchdog", type=float, metavar="SECONDS", help="a test with no physics progress for this long is a hang (default 120)"
    )
    validate.add_argument(
        "--max-test-seconds", type=float, metavar="SECONDS", help="wall-clock cap per test even while it progresses (default 3600)"
    )
    validate.add_argument("--quiet", action="store_true", help="no progress and no summary table")
    validate.add_argument("--debug", action="store_true", help="show Python tracebacks")
    validate.add_argument("--jobs", "-j", type=int, metavar="N", help="assets validated at once (default: number of CPU cores)")
    validate.add_argument("--executor", default="local", choices=("local", "ray"), help="where assets run: local processes or a Ray cluster")
    validate.add_argument("--ray-address", metavar="ADDR", help="Ray cluster to use with --executor ray (default: a private local instance)")
    validate.add_argument(
        "--changed-only", "--resume", dest="changed_only", action="store_true",
        help="reuse verdicts cached in OUT for assets, layers, tests and settings that did not change (also resumes an interrupted run)",
    )

    sub.add_parser("list-tests", help="list the registered tests with version, features and defaults")
    show = sub.add_parser("show-config", help="print the effective configuration as TOML")
    show.add_argument("--config", action="append", default=[], metavar="FILE")
    show.add_argument("--set", action="append", default=[], metavar="TEST.KEY=VALUE")
    return parser


def main(argv: list[str] | None = None) -> int:
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
        return _validate(args, console)
    except KeyboardInterrupt:
        console.print("[bold yellow]interrupted[/]")
        return ExitCode.ERROR
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one clear line, no traceback
        if getattr(args, "debug", False):
            raise
        console.print(f"[bold red]error:[/] {type(exc).__name__}: {exc} (run with --debug for the traceback)")
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
    console.print(f"[bold red]error:[/] {message}")
    return ExitCode.USAGE


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
            engine_class(name)
    except (ConfigError, UnknownTestError, EngineUnavailable, ValueError) as exc:  # ValueError: --compare syntax
        return _usage_error(console, str(exc))
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
            progress = BatchProgress(console)
        try:
            report = validate_batch(
                args.paths, tests, config, engine, engine_out, progress=progress, debug=args.debug,
                jobs=args.jobs, executor=args.executor, ray_address=args.ray_address, changed_only=args.changed_only,
            )
        except InputError as exc:
            return _usage_error(console, str(exc))
        reports[engine] = report
        # With --compare each engine's reports go to OUT/<engine>/ (explicit --json/--junit paths apply to one engine only).
        json_path = Path(args.json) if args.json and not args.compare else engine_out / "report.json"
        junit_path = Path(args.junit) if args.junit and not args.compare else engine_out / "junit.xml"
        written = _write_reports(report, json_path, junit_path, None if args.no_html else engine_out, console)
        if not args.quiet and not args.compare:
            from .reports.console import print_summary

            print_summary(report, Console())
        if not args.quiet:
            for label, path in written:
                console.print(f"{label}: {path}")
        codes.append(_exit_code(report, written))
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


def _exit_code(report, written) -> int:
    """The rule for every run: worst verdict; an incomplete run is an ERROR; a report CI cannot read is never green."""
    code = exit_code_for(r.status for r in report.all_results())
    if not report.complete and code == ExitCode.OK:
        code = ExitCode.ERROR
    if not any(label == "JSON" for label, _ in written) or not any(label == "JUnit" for label, _ in written):
        code = max(code, ExitCode.USAGE)
    return int(code)


def _write_comparison(reports: dict, out_dir: Path, args, console: Console) -> None:
    """--compare: the verdicts of every engine side by side (a disagreement alone does not fail the run)."""
    from .core.comparison import compare_reports
    from .reports.comparison_report import print_comparison, write_compare_html, write_compare_json

    comparison = compare_reports(reports)
    written = [("compare JSON", write_compare_json(comparison, out_dir / "compare.json"))]
    if not args.no_html:
        written.append(("compare HTML", write_compare_html(comparison, out_dir)))
    if not args.quiet:
        print_comparison(comparison, Console())
        for label, path in written:
            console.print(f"{label}: {path}")


def _write_reports(report, json_path: Path, junit_path: Path, html_dir: Path | None, console: Console):
    """JSON and JUnit (each failure named, never raised), then HTML when `html_dir` is given."""
    from .reports.json_report import write_json_report
    from .reports.junit import write_junit_report

    written = []
    for label, writer, path in (("JSON", write_json_report, json_path), ("JUnit", write_junit_report, junit_path)):
        try:
            written.append((label, writer(report, path)))
        except OSError as exc:
            console.print(f"[bold red]error:[/] cannot write the {label} report {path}: {exc.strerror or exc}")
    if html_dir is not None:
        try:
            from .reports.html import write_html_report
        except ImportError:
            write_html_report = None
        if write_html_report is not None:
            try:
                written.append(("HTML", write_html_report(report, html_dir)))
            except Exception as exc:  # noqa: BLE001 - the JSON/JUnit reports are already safe on disk
                console.print(f"[yellow]warning:[/] HTML report not written: {exc}")
    return written


def _list_tests() -> int:
    from rich.table import Table

    from .physics_tests import default_registry

    table = Table(title="registered tests")
    for column in ("test", "version", "features", "summary", "defaults"):
        table.add_column(column, overflow="fold")
    for name, test_cls in default_registry().items():
        defaults = ", ".join(f"{k}={v.default}" for k, v in test_cls.Config.model_fields.items())
        table.add_row(name, test_cls.version, ", ".join(test_cls.features), test_cls.summary, defaults)
    Console(width=200).print(table)
    return ExitCode.OK


def _show_config(args) -> int:
    import tomli_w

    from .core.config import ConfigError

    console = Console(stderr=True, soft_wrap=True)
    try:
        config = _load_config(args)
    except ConfigError as exc:
        return _usage_error(console, str(exc))
    print(tomli_w.dumps(_toml_safe(config.to_dict())))
    return ExitCode.OK


def _toml_safe(value):
    if isinstance(value, dict):
        return {k: _toml_safe(v) for k, v in value.items() if v is not None}
    if isinstance(value, float) and value != value:
        return "nan"
    return value


if __name__ == "__main__":
    sys.exit(main())
