"""The Kit engine's edits of the live stage: one anonymous sublayer of the session layer per test.

What goes on it is planned and authored by `engines.validation_layer` (pure pxr, shared with
headless engines that load the asset's USD); this module only owns where it lives on a live stage
and what is put back afterwards. Pure pxr: pytest applies it to real stages.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..validation_layer import ValidationLayerPlan, author_validation_layer


class ValidationLayer:
    """An anonymous sublayer of the session layer holding every edit of one validation.

    The edit target moves to it while the test runs (so PhysX write-back lands there too) and
    `remove()` restores the previous edit target and drops the layer: the composed stage is back to
    what it was and no user layer was ever dirtied.
    """

    def __init__(self, stage, plan: ValidationLayerPlan):
        self.stage = stage
        self.plan = plan
        self.layer = None
        self._previous_edit_target = None

    def apply(self) -> "ValidationLayer":
        from pxr import Sdf, Usd

        self.layer = Sdf.Layer.CreateAnonymous("physics_validator")
        session = self.stage.GetSessionLayer()
        session.subLayerPaths.insert(0, self.layer.identifier)
        self._previous_edit_target = self.stage.GetEditTarget()
        self.stage.SetEditTarget(Usd.EditTarget(self.layer))
        try:
            author_validation_layer(self.stage, self.plan, self.layer)
        except Exception:
            self.remove()
            raise
        return self

    def remove(self) -> None:
        if self.layer is None:
            return
        if self._previous_edit_target is not None:
            self.stage.SetEditTarget(self._previous_edit_target)
        session = self.stage.GetSessionLayer()
        if self.layer.identifier in session.subLayerPaths:
            session.subLayerPaths.remove(self.layer.identifier)
        self.layer = None


@dataclass
class UserState:
    """What the Kit engine puts back after a test: timeline time and play state, and the selection."""

    time: float = 0.0
    playing: bool = False
    selection: list[str] = field(default_factory=list)
