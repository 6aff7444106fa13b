"""The run layer: from paths to a RunReport, above the engines, the tests and the recorder.

- `inputs`: the asset files under the given paths, hashed once; per-asset output folders.
- `asset_run`: the one loop over an asset's tests (`AssetRun`), used by every front door.
- `worker`: an asset (or a function call: `fix`'s measurements) in a worker process; hangs and crashes
  become ERROR verdicts (error texts). `worker_pool` spawns the workers (kept across jobs by default) and
  `worker_main` is what runs inside one.
- `batch`: many assets, in parallel (`local`) or on a Ray cluster (`ray_cluster`), with a results cache.

`validate_batch` is public as `omni.simready.physics_validator.validate`. See docs/batch.md.
"""

from .batch import EXECUTORS, validate_batch

__all__ = ["EXECUTORS", "validate_batch"]
