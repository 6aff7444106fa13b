"""The `newton` engine's own settings (the `[newton]` section of a config, `--set newton.target=isaacsim-6.2`): which
Newton a verdict speaks for. Importing this module imports neither Warp nor Newton, so a config carries it wherever the
[newton] extra is absent."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

Target = Literal["latest", "isaacsim-6.2"]
TARGETS: tuple[str, ...] = get_args(Target)


class NewtonSettings(BaseModel):
    """Settings of the `newton` engine; part of every results-cache key (the report's engine block names them)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, strict=True)

    target: Target = Field(
        "latest",
        description=(
            "Which Newton a verdict speaks for. latest: the Newton of the [newton] extra with SolverSteel. "
            "isaacsim-6.2: the Newton Isaac Sim 6.2 bundles (Newton 1.6.1, Warp 1.17.0, MuJoCo Warp 3.12.0) run as "
            "Isaac Sim 6.2 runs it by default (SolverMuJoCo, its import and contact defaults), installed beside the "
            "environment on first use (docs/engines.md)."
        ),
    )
