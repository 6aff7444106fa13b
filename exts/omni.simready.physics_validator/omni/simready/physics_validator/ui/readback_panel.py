"""The panel's "What the runtime read" table: the runtime readback of the open stage, as the reports show it.

A mixin of the view-model (no omni import): the runner hands the readback over once per run
(`on_readback`, the `RunHooks.readback` hook of `run.asset_run.AssetRun`), the rows are the HTML report's
(`reports.readback_view`), flagged rows first, each beside the verdicts it explains (linked again as verdicts
arrive) and its fix. Topic "readback" tells the widgets to redraw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ..core.readback_links import link
from ..core.results import AssetResult, RuntimeReadback
from ..reports.readback_view import tables

if TYPE_CHECKING:
    from ..core.plugin import TestRegistry
    from ..core.results import TestResult


class ReadbackPanel:
    readback: RuntimeReadback | None = None
    # the view-model's, read here
    asset_path: str
    results: list[TestResult]
    registry: TestRegistry
    _changed: Callable[[str], None]

    def on_readback(self, readback: RuntimeReadback) -> None:
        self.readback = readback
        self._changed("readback")

    def readback_view(self, flagged_only: bool = False) -> dict | None:
        """{"joints": rows, "bodies": rows, "counts", "engine", "settings", "error", "seconds"} for the open stage,
        each row {"name", "property", "authored", "attribute", "runtime", "flag", "words", "note", "explains", "fix"}."""
        if self.readback is None:
            return None
        asset = AssetResult(path=self.asset_path, tests=list(self.results), runtime_readback=self.readback.model_copy(deep=True))
        link(asset, self.registry)
        view = tables(asset)
        if flagged_only and view is not None:
            view["joints"] = [r for r in view["joints"] if r["flag"]]
            view["bodies"] = [r for r in view["bodies"] if r["flag"]]
        return view

    def readback_text(self) -> str:
        """One line for the frame's title: the engine and the flag counts."""
        view = self.readback_view()
        if view is None:
            return "not read yet (validate to read it)"
        if view["error"]:
            return f"read failed: {view['error']}"
        counts = ", ".join(f"{n} {flag}" for flag, n in view["counts"].items()) or "every value as authored"
        return f"{view['engine']}{' (' + view['settings'] + ')' if view['settings'] else ''}: {counts}"
