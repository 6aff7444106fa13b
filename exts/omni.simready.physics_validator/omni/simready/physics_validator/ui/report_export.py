"""The panel's exports: the run on show as the CLI's report (JSON, JUnit, HTML), written where the user can find it.

A mixin of the view-model (no omni import): the report is the same `RunReport` the CLI writes, with the verdicts on
show, the runtime readback and the plausibility block of the open stage.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from ..core.results import AssetResult, EngineInfo, RunReport

if TYPE_CHECKING:
    from ..core.results import Plausibility, RuntimeReadback, TestResult


class ReportExport:
    # the view-model's, read here
    asset_path: str
    results: list[TestResult]
    complete: bool
    last_request: Any  # view_model.RunRequest | None
    readback: RuntimeReadback | None
    plausibility: Plausibility | None
    _say: Callable[[str], None]

    def report(self) -> RunReport:
        from .._version import __version__

        request = self.last_request
        done = {r.name for r in self.results}
        not_run = [] if request is None else [t for t in request.tests if t not in done]
        engine = next((r.engine for r in self.results if r.engine), "")
        return RunReport(tool_version=__version__, engine=EngineInfo.from_label(engine),  # as RunReport reads a name
                         complete=self.complete and not not_run, not_run=not_run,
                         assets=[AssetResult(path=self.asset_path, tests=list(self.results), runtime_readback=self.readback,
                                             plausibility=self.plausibility)])

    def export_json(self, path: str | os.PathLike) -> Path:
        """The report as the CLI writes it (reports.json when present, else the same pydantic schema)."""
        from ..reports.json_report import write_json_report

        path = Path(path)
        write_json_report(self.report(), path)
        self._say(f"JSON report written to {path}")
        return path

    def export_junit(self, path: str | os.PathLike) -> Path | None:
        from ..reports.junit import write_junit_report

        path = Path(path)
        write_junit_report(self.report(), path)
        self._say(f"JUnit report written to {path}")
        return path

    def export_html(self, out_dir: str | os.PathLike, opener: Callable[[str], Any] | None = None) -> Path | None:
        """Write the HTML report under `out_dir` (reports.html layout) and open it; `opener`
        defaults to the web browser."""
        try:
            from ..reports.html import write_html_report
        except ImportError as exc:  # jinja2/matplotlib missing from this Python
            self._say(f"HTML export is not available: {exc}")
            return None
        from ..physics_tests import default_registry

        index = Path(write_html_report(self.report(), Path(out_dir), default_registry()))
        if opener is None:
            import webbrowser

            opener = webbrowser.open
        opener(index.resolve().as_uri())
        self._say(f"HTML report written to {index}")
        return index

    def default_export_dir(self) -> Path:
        on_disk = self.asset_path and not self.asset_path.startswith("anon:") and Path(self.asset_path).is_file()
        base = Path(self.asset_path).resolve().parent if on_disk else None
        return Path(tempfile.gettempdir()) / "physics_validator" if base is None or not os.access(base, os.W_OK) else base
