"""The panel's plausibility findings (core/plausibility): what needs no simulation to see, on what the runtime built.

A mixin of the view-model (no omni import), like readback_panel.py: the runner hands the block over once per run
(`on_plausibility`, the `RunHooks.plausibility` hook of `run.asset_run.AssetRun`, read beside the readback from the
same engine). The panel shows it twice: its own table (the HTML report's rows, `reports.plausibility_view`: errors
first, each with the verdicts it explains and its fix), and on each verdict row the findings that explain that row
(`VerdictRow.findings`), by the rule that names them in the reports (`core.plausibility.links.explained`).
Topic "plausibility" tells the widgets to redraw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..core.plausibility.links import declared_codes, explained, link
from ..core.results import AssetResult, Plausibility
from ..reports.plausibility_view import line, tables

if TYPE_CHECKING:
    from ..core.plugin import TestRegistry
    from ..core.results import PlausibilityFinding, TestResult
    from .rows import VerdictRow


class PlausibilityPanel:
    plausibility: Plausibility | None = None
    # the view-model's, read here
    asset_path: str
    results: list[TestResult]
    registry: TestRegistry
    _changed: Callable[[str], None]

    def on_plausibility(self, block: Plausibility) -> None:
        self.plausibility = block
        self._changed("plausibility")
        self._changed("rows")  # the findings join the verdict rows they explain

    def plausibility_view(self) -> dict | None:
        """{"rows", "engine", "seconds", "checked", "not_checked", "error"} for the open stage, each row {"code",
        "requirement", "severity", "subject", "path", "message", "explains", "fix", "runtime_record"}; None before a
        run read it. The verdicts each finding explains are those on show (linked on copies: the panel's results are
        not touched)."""
        if self.plausibility is None:
            return None
        asset = AssetResult(path=self.asset_path, tests=[r.model_copy(deep=True) for r in self.results],
                            plausibility=self.plausibility.model_copy(deep=True))
        link(asset, self.registry)
        return tables(asset)

    def plausibility_text(self) -> str:
        """One line for the frame's title: the engine and how many findings of each severity."""
        block = self.plausibility
        if block is None:
            return "not checked yet (validate to check)"
        if block.error:
            return f"checks failed: {block.error}"
        counts = {s: sum(1 for f in block.findings if f.severity == s) for s in ("error", "warning", "info")}
        found = ", ".join(f"{n} {s}{'s' if n > 1 else ''}" for s, n in counts.items() if n) or "nothing implausible"
        return f"{block.engine}: {found}"

    def with_findings(self, rows: list[VerdictRow]) -> list[VerdictRow]:
        """Each verdict row given the findings that explain it ('CODE (RB.007): message'): a joint row those naming
        it, a test row those naming any of its rows or its verdict as a whole."""
        block = self.plausibility
        if block is None or not block.findings:
            return rows
        by_test = {r.name: r for r in self.results}
        for row in rows:
            result = by_test.get(row.test)
            if result is None:
                continue
            declared = declared_codes(self.registry, result.name)
            for found in block.findings:
                if found.code not in declared:
                    continue
                named, whole = explained(result, found)
                if named or whole:
                    _add(row, found)
                for child in row.children:
                    if child.kind == "joint" and any(child.joint in (r.path, r.joint) for r in named):
                        _add(child, found)
        return rows


def _add(row: "VerdictRow", found: "PlausibilityFinding") -> None:
    text = line(found.model_copy(update={"explains": []}))  # the row says which verdict it is
    if text not in row.findings:
        row.findings.append(text)
