"""The ovphysx runtime in this process: set up once, before the first population, in every process.

ovphysx (NVIDIA's Omni PhysX runtime as a Python wheel) is configured per process: CPU mode, no
dispatcher threads (the default 8 threads thrash on 2 cores: 51 ms per step of one cube against 42 µs
with NUM_THREADS=0, see docs/engines.md), and the PhysX and Newton USD schemas registered before the
first USD schema read. It is **not fork-safe**: a child forked after the parent imported it segfaults
or hangs, so nothing here runs at package import time; `ensure_runtime()` is called by the engine's
first `load()`, and worker pools must spawn.

Versions come from the installed distribution's metadata, so naming them never imports the runtime.

One idle PhysX instance (`Runtime.keeper`, never attached) lives as long as the process: ovphysx shuts its process
lifecycle down when the *last* instance is destroyed (`ovphysx_shutdown()`: ≈ 97 ms, measured on the 6-DOF arm,
and the cooked-collider datastore goes with it), so without it every engine's `close()` paid that teardown and
the next load started the runtime and cooked every mesh again; with it a close costs ≈ 3 ms. At interpreter exit
ovphysx's own atexit handler destroys it (and shuts down once); spawned workers leave with os._exit.
"""

from __future__ import annotations

import functools
import logging
import threading
import warnings
from dataclasses import dataclass
from importlib import metadata
from typing import Any

OVPHYSX_PIN = "0.7.0.74035321"
# The PhysX SDK inside each ovphysx release line. There is no runtime getter; the wheel's
# docs/changelog.md says for 0.7.0: "The bundled simulation engine advances to PhysX 5.12".
PHYSX_SDK_BY_RELEASE = {"0.7": "5.12"}
LOGGER_NAME = "omni.simready.physics_validator.ovphysx"

_LOCK = threading.Lock()
_RUNTIME: "Runtime | None" = None


@functools.lru_cache(maxsize=1)
def ovphysx_version() -> str | None:
    """The installed ovphysx distribution's version, or None when it is not installed (no import). Read once per
    process: the metadata lookup walks sys.path (3-9 ms), and every test creates an engine."""
    try:
        return metadata.version("ovphysx")
    except metadata.PackageNotFoundError:
        return None


def physx_sdk_version(ovphysx: str | None) -> str:
    release = ".".join(str(ovphysx or "").split(".")[:2])
    return PHYSX_SDK_BY_RELEASE.get(release, "unknown")


def version_string() -> str:
    ovphysx = ovphysx_version() or "not installed"
    return f"ovphysx {ovphysx} / PhysX {physx_sdk_version(ovphysx)}"


@dataclass
class Runtime:
    """The imported modules and the enums the engine uses."""

    ovphysx: Any
    ovstage: Any
    PhysX: type
    SimObjectType: Any
    TensorType: Any
    LogLevel: Any
    keeper: Any = None  # an idle PhysX instance holding the process lifecycle (module docstring)


def ensure_runtime() -> Runtime:
    """Import and configure ovphysx once per process (CPU, NUM_THREADS=0, schemas registered)."""
    global _RUNTIME
    with _LOCK:
        if _RUNTIME is not None:
            return _RUNTIME
        try:
            import pxr  # noqa: F401  (usd-core first, then ovphysx: measured to coexist in one process)
            # Warp (ovphysx's array type) prints a banner and, from native code, "CUDA driver not found" on
            # CPU machines: started here without either (engines/quiet_warp.py)
            from ..quiet_warp import init_warp

            init_warp()
            import ovphysx
            import ovstage
            from ovphysx import GlobalConfigKey, LogLevel, PhysX, set_global_config
            from ovphysx.samples.python_samples.schema_support import physx_schema_paths
            from ovphysx.types import SimObjectType, TensorType
        except ImportError as exc:
            raise ImportError(f"ovphysx is not installed (pip install ovphysx=={OVPHYSX_PIN}): {exc}") from exc
        warnings.filterwarnings("ignore", message=".*CPU-only mode.*", category=RuntimeWarning)
        PhysX.set_cpu_mode(True)
        set_global_config(GlobalConfigKey.NUM_THREADS, 0)
        ovstage.population.register_usd_schemas([*map(str, physx_schema_paths()), str(ovphysx.newton_schema_root())])
        _RUNTIME = Runtime(ovphysx, ovstage, PhysX, SimObjectType, TensorType, LogLevel, PhysX())
        return _RUNTIME


class LogCapture(logging.Handler):
    """Collects the runtime's native log records (WARNING and up) so the engine can surface them in the
    verdict's warnings instead of on the console."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = f"ovphysx {record.levelname.lower()}: {record.getMessage().strip()}"
        if text not in self.records:
            self.records.append(text)

    def drain(self, runtime: Runtime) -> list[str]:
        """Flush the native log and return (and forget) what arrived since the last drain."""
        try:
            runtime.ovphysx.flush_log(timeout_ns=1_000_000_000)
        except Exception:  # noqa: BLE001 - a log problem never costs a verdict
            pass
        out, self.records = self.records, []
        return out


def capture_log(runtime: Runtime) -> LogCapture:
    """Route the runtime's log into a fresh capture (after each new PhysX instance; process-global)."""
    capture = LogCapture()
    logger = logging.getLogger(LOGGER_NAME)
    logger.handlers = [capture]
    logger.propagate = False
    runtime.ovphysx.enable_python_logging(LOGGER_NAME, min_severity=runtime.LogLevel.WARNING)
    runtime.ovphysx.enable_default_log_output(False)  # the native console copy off: records go to the capture
    return capture
