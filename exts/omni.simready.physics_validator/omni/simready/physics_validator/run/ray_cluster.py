"""Ray executor: the same per-asset jobs as the local executor, as tasks on a Ray cluster.

Each task runs `run_asset_isolated` on whichever node Ray picks, so a hang or a native crash still
costs one test, not the Ray worker. The isolated worker comes from that Ray process's shared pool
(`worker_pool.shared_pool`), so a Ray worker that runs many tasks keeps one warmed-up worker for
them. Ray is imported only when this executor is chosen (the `[ray]` extra); the local default
never needs it. With no address a private single-node Ray
instance is started on 127.0.0.1 for this run and shut down afterwards. The package (same
version) must be installed on every node, and `--out` must be on storage the nodes share if
videos or series are recorded (see docs/batch.md).
"""

from __future__ import annotations

import logging
from typing import Iterator

from ..core import out_writer
from ..core.results import AssetResult
from .inputs import AssetJob, InputError
from .worker import run_asset_isolated


RAY_TOKEN_LOGGER = "ray._private.authentication.authentication_token_setup"


def _drop_token_notice(record: logging.LogRecord) -> bool:
    return "Token authentication is enabled for this Ray cluster" not in str(record.msg)


def run_job_remotely(job_fields: dict, out_roots: list[str] | None = None) -> tuple[dict, dict]:
    """The Ray task body: plain dicts in and out (`AssetJob.to_wire`), so the driver and nodes only share the schema;
    `out_roots`: the OUT folders the driver claimed (core.out_writer), made of real folders here too."""
    out_writer.adopt(out_roots)
    asset_result = run_asset_isolated(AssetJob.from_wire(job_fields))
    series = {result.name: result.series for result in asset_result.tests if result.series}
    return asset_result.model_dump(mode="json"), series


class RayExecutor:
    name = "ray"

    def __init__(self, address: str | None, jobs: int):
        try:
            import ray  # noqa: F401
        except ImportError:
            raise InputError("--executor ray needs Ray: pip install 'omni-simready-physics-validator[ray]'") from None
        self.address = address
        self.jobs = max(1, int(jobs))

    def describe(self) -> str:
        return f"ray at {self.address}" if self.address else f"ray, local instance on 127.0.0.1 with {self.jobs} CPUs"

    def _connect(self) -> bool:
        """Connect (or start a private local instance); True when this call started Ray."""
        import ray

        if ray.is_initialized():
            return False
        quiet = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
        if self.address:
            ray.init(address=self.address, **{k: v for k, v in quiet.items() if k != "include_dashboard"})
        else:
            # The private instance keeps Ray's default token authentication, without Ray's notice that it
            # did ("Token authentication is enabled ... Set RAY_AUTH_MODE=disabled to opt out") on every run.
            logging.getLogger(RAY_TOKEN_LOGGER).addFilter(_drop_token_notice)
            ray.init(address=None, num_cpus=self.jobs, _node_ip_address="127.0.0.1", **quiet)
        return True

    def events(self, jobs: list[AssetJob]) -> Iterator[tuple[str, int, object]]:
        import ray

        started_here = self._connect()
        remote = ray.remote(num_cpus=1, max_retries=0)(run_job_remotely)
        pending = {remote.remote(job.to_wire(), out_writer.roots()): index for index, job in enumerate(jobs)}
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
                for ref in ready:
                    index = pending.pop(ref)
                    try:
                        data, series = ray.get(ref)
                    except Exception as exc:  # noqa: BLE001 - a lost node or task: ERROR for that asset
                        yield ("failed", index, f"Ray task failed: {type(exc).__name__}: {exc}")
                        continue
                    asset_result = AssetResult.model_validate(data)
                    for result in asset_result.tests:
                        result.series = series.get(result.name, {})
                    yield ("asset", index, asset_result)
        finally:
            for ref in pending:
                try:
                    ray.cancel(ref, force=True)
                except Exception:  # noqa: BLE001
                    pass
            if started_here:
                ray.shutdown()
