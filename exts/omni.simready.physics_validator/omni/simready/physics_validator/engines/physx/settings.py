"""The `physx` engine's own settings (the `[physx]` section of a config, `--set physx.target=latest`): what a verdict
speaks for. Importing this module imports no physics library, so a config can carry it where ovphysx is absent."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

Target = Literal["isaacsim-5", "latest"]
TARGETS: tuple[str, ...] = get_args(Target)


class PhysxSettings(BaseModel):
    """Settings of the `physx` engine (ovphysx, the Omni PhysX runtime); part of every results-cache key."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, strict=True)

    target: Target = Field(
        "isaacsim-5",
        description=(
            "Which runtime a verdict speaks for. isaacsim-5: legacy physxJoint:maxJointVelocity / armature / "
            "jointFriction are carried over to physxJointAxis:<axis>:* in the engine's wrapper layer, as Isaac Sim "
            "5.x honours them, with a forward-compatibility warning. latest: the runtime as it is (PhysX 5.12 / "
            "ovphysx 0.7 ignores PhysxJointAPI)."
        ),
    )
