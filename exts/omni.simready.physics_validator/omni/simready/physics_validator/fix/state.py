"""One asset's fix in progress: the verdicts as authored, the diagnosis, the plan and the rounds so far."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.config import ValidationConfig
    from ..core.results import AssetResult
    from .diagnose import Diagnosis
    from .plan import Plan
    from .rounds import Round


@dataclass
class AssetFix:
    """One asset's fix in progress."""

    before: "AssetResult"
    work: Path
    config: "ValidationConfig"
    names: list[str]
    diagnosis: "Diagnosis | None" = None
    allow: dict = field(default_factory=dict)
    levels: dict[str, int] = field(default_factory=dict)
    reverted: dict[str, str] = field(default_factory=dict)  # joint path -> why
    retuned: set[str] = field(default_factory=set)  # joints escalated or added for the next round (the rest keep their proposal)
    dropped: set[str] = field(default_factory=set)  # joint paths reverted because a re-run showed their change break something
    plan: "Plan | None" = None
    rounds: list["Round"] = field(default_factory=list)
    done: bool = False
    status: str = ""
    summary: str = ""
    final_layer: Path | None = None
    final_root: Path | None = None

    @property
    def path(self) -> str:
        return self.before.path
