"""The panel's engine line: which physics engine judged the verdicts on show, and which one Isaac Sim is running.

The panel judges with PhysX (omni.physx, the Kit engine). Isaac Sim 6.x may be running another engine: Kit 110's
engine-neutral layer (omni.physics) keeps one engine active, and Isaac Sim 6.2's Newton extension switches to Newton
at start-up by default. Play then steps Newton, not PhysX, so the panel cannot validate on the live stage and says
so, with what to do: the headless engines judge the saved file (Newton's verdicts with `--engine newton`), or PhysX
made active again lets the panel run. No omni import: `live/active_engine.py` reads Kit.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass

JUDGE = "PhysX (omni.physx)"  # the only engine the panel validates with
JUDGE_NAME = "physx"
# Isaac Sim 6.2's own switches (isaacsim.physics.newton 1.1.1 extension.toml; isaacsim.core.simulation_manager 1.17.4)
NEWTON_OPT_OUT = "--/exts/isaacsim.physics.newton/auto_switch_on_startup=false"
SWITCH_TO_PHYSX = 'SimulationManager.switch_physics_engine("physx")'


@dataclass(frozen=True)
class ActiveEngine:
    """The engine Isaac Sim steps on Play, as read from Kit: `name` as registered ("PhysX", "Newton"), empty when
    none is active; `source` says where that was read, for people."""

    name: str
    source: str

    @property
    def is_judge(self) -> bool:
        return self.name.lower() == JUDGE_NAME


def judged_by(engine_names) -> str:
    """The engine label of the verdicts on show: the Kit engine ("kit") is PhysX through omni.physx."""
    names = sorted({JUDGE if name == "kit" else str(name) for name in engine_names if name})
    return " and ".join(names)


def headless_command(asset_path: str, engine: str) -> str:
    return f"simready-physics validate {shlex.quote(asset_path or '<saved asset.usd>')} --engine {engine}"


def _running(active: ActiveEngine) -> str:
    return active.name or "no physics engine"


def _headless(active: ActiveEngine, asset_path: str) -> str:
    """The headless commands that give verdicts on the saved file: the scene's engine's when the project has it."""
    physx = f"PhysX's: {headless_command(asset_path, 'physx')}"
    if active.name.lower() == "newton":
        return f"Newton's verdicts, headless on the saved file: {headless_command(asset_path, 'newton')}; {physx}"
    return f"verdicts headless on the saved file, {physx}"


def engine_line(active: ActiveEngine | None, judged_by: str, asset_path: str) -> str:
    """One or two sentences for the panel. `judged_by`: the engine label of the verdicts on show ("" before any)."""
    judged = f"Verdicts judged by {judged_by}." if judged_by else f"Verdicts are judged by {JUDGE}."
    if active is None:
        return f"{judged} Isaac Sim's active physics engine was not read."
    if active.is_judge:
        return f"{judged} Isaac Sim runs {active.name} too ({active.source})."
    return (f"{judged} Your scene runs {_running(active)}, not PhysX ({active.source}): the verdicts here are PhysX's, "
            f"not {_running(active)}'s. {_headless(active, asset_path)}")


def why_not_live(active: ActiveEngine | None, asset_path: str) -> str | None:
    """Why the panel cannot validate on the live stage now (None when it can): PhysX is not the engine Play steps."""
    if active is None or active.is_judge:
        return None
    return (f"Not validated: Isaac Sim is running {_running(active)}, not PhysX ({active.source}), so Play does not step "
            f"{JUDGE}, the engine this panel validates with. {_headless(active, asset_path)}. To validate in the "
            f"panel, start Isaac Sim with {NEWTON_OPT_OUT} or call {SWITCH_TO_PHYSX} (which also edits your physics "
            f"scene's solver APIs).")


TARGET = "Isaac Sim 6.x (Kit 110.x), kept for Isaac Sim 5.1 (Kit 107.3)"


def startup_line(ext_id: str, tool_version: str, active: ActiveEngine, kit_version: str) -> str:
    """The one line the extension logs when Kit starts it: its version, the engines, the target and the Kit it runs on."""
    running = f"{active.name or 'none'} ({active.source})"
    return (f"{ext_id} started: simready-physics {tool_version}; validates with {JUDGE}, Isaac Sim's active physics "
            f"engine: {running}; targets {TARGET}, running on Kit {kit_version}")
