"""`simready-physics validate --compare physx,newton`: the same assets on two engines, verdicts side by side.

Each engine's full report goes to OUT/<engine>/ (report.json, junit.xml, HTML); the comparison to
OUT/compare.json and OUT/compare.html, and to the console. The exit code follows all verdicts of
both engines (the usual rule); a disagreement alone does not fail the run, it is a finding to read.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from .core.status import ExitCode, exit_code_for


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


def run_comparison(args, config, tests, engines: list[str], out_dir: Path, console: Console) -> int:
    from .batch import validate_batch
    from .core.compare import compare_reports
    from .reports.compare import print_comparison, write_compare_html, write_compare_json
    from .reports.json_report import write_json_report
    from .reports.junit import write_junit_report

    reports = {}
    for engine in engines:
        engine_out = out_dir / engine
        engine_out.mkdir(parents=True, exist_ok=True)
        progress = None
        if not args.quiet:
            from .batch.progress import BatchProgress

            console.print(f"[bold]engine {engine}[/]")
            progress = BatchProgress(console)
        report = validate_batch(
            args.paths, tests, config, engine, engine_out, progress=progress, debug=args.debug,
            jobs=args.jobs, executor=args.executor, ray_address=args.ray_address, changed_only=args.changed_only,
        )
        reports[engine] = report
        write_json_report(report, engine_out / "report.json")
        write_junit_report(report, engine_out / "junit.xml")
        if not args.no_html:
            _write_engine_html(report, engine_out, console)
    comparison = compare_reports(reports)
    written = [("compare JSON", write_compare_json(comparison, out_dir / "compare.json"))]
    if not args.no_html:
        written.append(("compare HTML", write_compare_html(comparison, out_dir)))
    if not args.quiet:
        print_comparison(comparison, Console())
        for label, path in written:
            console.print(f"{label}: {path}")
    code = exit_code_for(r.status for report in reports.values() for r in report.all_results())
    if not all(report.complete for report in reports.values()) and code == ExitCode.OK:
        code = ExitCode.ERROR
    return int(code)


def _write_engine_html(report, out: Path, console: Console) -> None:
    try:
        from .reports.html import write_html_report
    except ImportError:
        return
    try:
        write_html_report(report, out)
    except Exception as exc:  # noqa: BLE001 - the JSON reports are already on disk
        console.print(f"[yellow]warning:[/] HTML report not written: {exc}")
