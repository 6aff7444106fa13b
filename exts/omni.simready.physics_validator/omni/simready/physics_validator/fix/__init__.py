"""`simready-physics fix`: propose a drive-tuning USD layer for the driven-joint failures drive values can fix,
prove it with a re-run of the tests, and keep only what the re-run proves. The asset is never written.

    from omni.simready.physics_validator.fix import fix_assets
    report = fix_assets(["robot.usda"], out_dir="fix-report")   # RunReport; each asset has a `fix` block

Modules: `diagnose` (which failures drives can fix), `probe` (inertia, loads and blocked endpoints measured
through the engine), `rules` (the formulas), `plan` (probe + rules + static verification, in a worker process
of the run layer: `run.worker.run_calls`), `layers` (USD), `rounds` (before/after), `outcome` (files and the
report block), `pipeline` (the loop), `command` (the CLI), `session` (the panel: the layer on the session only).
See docs/fix.md.
"""

from .pipeline import fix_assets
from .targets import FixTargets

__all__ = ["FixTargets", "fix_assets"]
