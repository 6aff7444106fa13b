"""Batch validation of asset libraries: many assets in parallel, incremental, on one machine or a Ray cluster.

`validate_batch` has the same contract as `core.runner.validate` (one RunReport, assets in input
order) and adds `jobs`, `executor` ("local" or "ray") and `changed_only`. See docs/batch.md.
"""

from .run import EXECUTORS, validate_batch

__all__ = ["EXECUTORS", "validate_batch"]
