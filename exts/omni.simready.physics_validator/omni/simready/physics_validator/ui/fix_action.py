"""The panel's "Propose fix" on a failing joint row: run the fixer for that joint, keep its proof, and put an accepted
layer on the open stage's **session layer** only (never its root layer, never the file), where "Remove fix" takes
it off again. No omni import: the stage is any pxr stage (Kit gives the open one; pytest opens the file).

The fixer is pluggable (`fixer(asset_path, tests, config, joint, out_dir) -> FixResult`); the default runs
`fix.fix_assets` headless on the asset as saved, limited to the row's joint, re-running every checked test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ..core.results import FixResult
from ..core.status import Status

FAILING_ROWS = (Status.FAIL.value, Status.WARN.value)


def headless_fixer(asset_path: str, tests: list[str], config, joint: str, out_dir: Path) -> FixResult:
    from ..fix import fix_assets

    report = fix_assets([asset_path], tests, config, "physx", out_dir, jobs=1, joints=[joint])
    return report.assets[0].fix or FixResult(status="error", summary="no fix block")


def apply_to_session(stage, layer_path: str) -> str:
    """Sublayer `layer_path` first (strongest) in the stage's session layer; returns the path as inserted."""
    session = stage.GetSessionLayer()
    path = str(Path(layer_path).resolve())
    if path not in list(session.subLayerPaths):
        session.subLayerPaths.insert(0, path)
    return path


def remove_from_session(stage, layer_path: str) -> None:
    session = stage.GetSessionLayer()
    paths = list(session.subLayerPaths)
    if layer_path in paths:
        del session.subLayerPaths[paths.index(layer_path)]


class FixAction:
    """Propose, apply, revert: the state behind the panel's Propose fix / Remove fix buttons."""

    def __init__(self, fixer: Callable[..., FixResult] | None = None):
        self.fixer = fixer or headless_fixer
        self.result: FixResult | None = None
        self.applied: tuple[Any, str] | None = None  # (stage, layer path on its session layer)
        self.message = ""

    @staticmethod
    def can_propose(row) -> bool:
        return row is not None and getattr(row, "kind", "") == "joint" and bool(row.joint) and row.status in FAILING_ROWS

    def propose(self, asset_path: str, tests: list[str], config, joint: str, out_dir: Path, stage=None) -> FixResult:
        self.revert()
        self.result = result = self.fixer(asset_path, tests, config, joint, Path(out_dir))
        fixed = [f"{t.test} {t.before.value} → {t.after.value}" for t in result.tests if t.after and t.after != t.before]
        if result.accepted and result.layer and stage is not None:
            self.applied = (stage, apply_to_session(stage, result.layer))
            self.message = (f"fix applied to the session only (the file is unchanged): {', '.join(fixed) or result.summary}; "
                            f"layer {result.layer}")
        elif result.accepted:
            self.message = f"fix proposed (no open stage to apply it to): {result.layer}"
        else:
            why = "; ".join(f"{n.joint or 'asset'}: {n.cause}" for n in result.not_fixable[:3])
            self.message = f"no fix applied ({result.status}): {result.summary}" + (f" [{why}]" if why else "")
        return result

    def revert(self) -> None:
        if self.applied is not None:
            stage, path = self.applied
            remove_from_session(stage, path)
            self.applied = None
            self.message = "fix removed from the session"
