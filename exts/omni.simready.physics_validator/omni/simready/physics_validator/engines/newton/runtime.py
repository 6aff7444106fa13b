"""Warp and Newton start-up: the target's Newton, a persistent kernel cache, quiet logs, a notice before the cold compile.

Which Newton a process imports is its target (targets.py): `latest` from this environment, or a side-by-side install
put first on sys.path (installed on first use, install.py). Warp compiles Newton's kernels on first use (about 30 s for
SolverSteel on 2 CPU cores, measured). The compiled modules land in a cache folder that survives between runs, so only
the first run on a machine pays. The folder is `~/.cache/simready-physics/warp` unless `SIMREADY_WARP_CACHE` (or
Warp's own `WARP_CACHE_PATH`) names another; Warp appends its version to it, and the ready marker names the Newton and
Warp versions, so the targets keep their kernels apart. CI keeps it between its steps because it runs on one machine
(see docs/engines.md).
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from ...core.engine import EngineUnavailable
from .targets import NewtonTarget, process_target, version_line

CACHE_ENV = "SIMREADY_WARP_CACHE"
DEFAULT_CACHE = Path.home() / ".cache" / "simready-physics" / "warp"

PROCESS_STATE: dict = {}  # this process: the imported warp and newton modules, and the cold-compile notice flags


def cache_root() -> Path:
    """Where compiled kernels are kept: $SIMREADY_WARP_CACHE, else $WARP_CACHE_PATH, else the default."""
    for var in (CACHE_ENV, "WARP_CACHE_PATH"):
        value = os.environ.get(var)
        if value:
            return Path(value).expanduser()
    return DEFAULT_CACHE


def import_newton():
    """Import and initialise warp + newton of this process's target once per process; returns (wp, newton)."""
    if "newton" in PROCESS_STATE:
        return PROCESS_STATE["wp"], PROCESS_STATE["newton"]
    t = process_target()
    if t.side_by_side:
        _put_side_install_first(t)
    import warp as wp

    from ..quiet_warp import init_warp

    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    wp.config.kernel_cache_dir = str(root)
    init_warp()  # quiet: no "load ... (cached)" lines, no "CUDA driver not found" on a CPU machine
    _announce_compiles(wp)
    import newton  # noqa: F401  (registers newton.usd, newton.solvers)
    import newton.solvers  # noqa: F401
    import newton.usd  # noqa: F401

    if t.side_by_side and (wp.__version__, newton.__version__) != (t.pinned("warp-lang"), t.pinned("newton")):
        raise EngineUnavailable(
            f"newton.target={t.name} runs {version_line(t)}, but this process imported newton {newton.__version__} / "
            f"warp {wp.__version__} from {Path(newton.__file__).parent.parent}")

    # The USD importer warns, once per load, about `newton:*` attributes authored without customData
    # (e.g. newton:timeStepsPerSecond in Newton's own sample assets). The validator sets the step rate
    # and every setting it reads itself, so the line is nothing an asset author needs to act on here.
    logging.getLogger("newton._src.usd.utils").addFilter(_drop_custom_attribute_notice)

    PROCESS_STATE.update(wp=wp, newton=newton, target=t)
    return wp, newton


def imported_target() -> NewtonTarget | None:
    """The target whose Newton this process imported, None before the import."""
    return PROCESS_STATE.get("target")


def _put_side_install_first(t: NewtonTarget) -> None:
    """The target's folder first on sys.path (installed now on first use); refused where another Warp or Newton is
    imported already (a process holds one: ovphysx starts Warp, a `latest` engine imports Newton)."""
    from .install import ensure_installed

    pins = {"warp": t.pinned("warp-lang"), "newton": t.pinned("newton")}
    held = [f"{name} {getattr(sys.modules[name], '__version__', '?')}" for name in pins
            if name in sys.modules and getattr(sys.modules[name], "__version__", None) != pins[name]]
    if held:
        raise EngineUnavailable(
            f"newton.target={t.name} needs a process of its own ({version_line(t)}), and this one has imported "
            f"{' and '.join(held)} already: run it in worker processes (without --in-process), or start a new process")
    folder = ensure_installed(t, PROCESS_STATE.get("notice"))
    if folder is not None and str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


def _announce_compiles(wp) -> None:
    """Every Warp module this process compiles (its binary not in the cache) is announced first, through the notice
    `prepare_process` was given (a worker: a first-run phase, which the parent's watchdog does not count as a hang),
    else once on stderr. warm_up.py compiles what a validation steps before any test's clock starts; this covers a
    kernel variant it did not foresee (Newton specialises its narrow phase by the shape types of a model, MuJoCo Warp
    by the model's options), so a compile during a test never reads as a hang. Hooks `Module._compile(device,
    output_dir, output_name, ...)`, which Warp 1.17 and 1.19 both call with the binary's folder and name."""
    module_class = getattr(getattr(getattr(wp, "_src", None), "context", None), "Module", None)
    compile_ = getattr(module_class, "_compile", None)
    if module_class is None or compile_ is None or getattr(compile_, "announces", False):
        return

    def announcing_compile(self, device=None, output_dir=None, output_name=None, *args, **kwargs):
        if output_dir is not None and output_name is not None and not os.path.exists(os.path.join(output_dir, output_name)):
            notice = PROCESS_STATE.get("notice")
            text = compile_notice()
            if notice is not None:
                notice(text)
            elif not PROCESS_STATE.get("announced"):
                print(text, file=sys.stderr, flush=True)
                PROCESS_STATE["announced"] = True
        return compile_(self, device, output_dir, output_name, *args, **kwargs)

    announcing_compile.announces = True  # type: ignore[attr-defined]
    module_class._compile = announcing_compile


def _drop_custom_attribute_notice(record: logging.LogRecord) -> bool:
    return "is missing required customData" not in str(record.msg)


def _ready_marker() -> Path:
    wp, newton = import_newton()
    return cache_root() / f"simready-newton-{newton.__version__}-warp-{wp.__version__}.ready"


def is_warm() -> bool:
    """Whether this cache holds the kernels a validation steps (warm_up.warm_kernels ran, or a run stepped)."""
    return bool(PROCESS_STATE.get("warm")) or _ready_marker().exists()


def compile_notice() -> str:
    """What a first run tells the user, once: what is compiled, that it happens once, where it is kept."""
    return f"compiling Newton kernels, first run only (about a minute; kept in {cache_root()})"


def announce_cold_compile(stream=None) -> bool:
    """Print the compile notice (stderr) when this cache has not yet run a Newton step; True if printed."""
    if PROCESS_STATE.get("announced") or is_warm():
        return False
    print(compile_notice(), file=stream or sys.stderr, flush=True)
    PROCESS_STATE["announced"] = True
    return True


def mark_warm() -> None:
    """Record that the kernels a validation step needs are in the cache (after the first full step)."""
    if PROCESS_STATE.get("warm"):
        return
    marker = _ready_marker()
    try:
        marker.touch()
    except OSError:
        pass  # a read-only cache only means the notice shows again
    PROCESS_STATE["warm"] = True
