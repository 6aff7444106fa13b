"""Every xformOp of every rigid body and collider, and of the prims above them, checked for NaN and Inf.

The UsdPhysics parser hands over a world pose, and a non-finite orient does not survive into it: `quatf
xformOp:orient = (inf, 0, 0, 0)` came out as the identity rotation, and the body got ground_drop PASS (issue 42). So
the ops themselves are read here: translate, orient, rotate*, scale and transform, at the default time (what the
runtime reads) and at every time sample (a NaN sample is never passed, whatever time a runtime reads). A
time-sampled op with no default adds nothing at the default time: said, as a warning.
"""

from __future__ import annotations

import math

import numpy as np

from .read_context import ReadContext

MAX_SAMPLES = 100_000  # time samples read per op; past this the rest are not checked (and the message says so)


def values_of(value) -> np.ndarray | None:
    """A USD value's numbers (GfQuat, GfMatrix, vectors, arrays, scalars), or None when it has none (a token)."""
    if value is None or isinstance(value, (str, bool)):
        return None
    if hasattr(value, "GetReal"):
        return np.array([value.GetReal(), *value.GetImaginary()], dtype=float)
    try:
        out = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return None
    return out if out.dtype.kind == "f" else None


def is_finite(value) -> bool:
    numbers = values_of(value)
    return numbers is None or bool(np.isfinite(numbers).all())


def shown(value) -> str:
    """A value for a one-line message: a few numbers, `nan`/`inf` as Python writes them."""
    numbers = values_of(value)
    if numbers is None:
        return repr(value)
    flat = [float(x) for x in numbers.ravel()[:16]]
    text = ", ".join(f"{x:g}" if math.isfinite(x) else str(x) for x in flat)
    return f"({text})" if numbers.size > 1 else text


def check_xform_ops(ctx: ReadContext, prim_paths) -> None:
    """TRANSFORM_NAN for each op of the bodies and colliders at `prim_paths` or above them whose default value or a time
    sample is not finite; TIME_SAMPLED_TRANSFORM (a warning) for an op with time samples and no default."""
    from pxr import Sdf, Usd, UsdGeom

    seen: set[str] = set()
    for path in prim_paths:
        owner = str(path)
        for prefix in reversed(Sdf.Path(owner).GetPrefixes()):
            if str(prefix) in seen:
                continue
            seen.add(str(prefix))
            prim = ctx.stage.GetPrimAtPath(prefix)
            if not prim or not prim.IsA(UsdGeom.Xformable):
                continue
            whose = "" if str(prefix) == owner else f" (above {owner})"
            for op in UsdGeom.Xformable(prim).GetOrderedXformOps():
                _check_op(ctx, str(prefix), op.GetAttr(), whose, Usd.TimeCode.Default())


def _check_op(ctx: ReadContext, prim_path: str, attr, whose: str, default_time) -> None:
    name = attr.GetName()
    value = attr.Get(default_time)
    if not is_finite(value):
        ctx.issue("error", "TRANSFORM_NAN", prim_path, f"{name} = {shown(value)}{whose}: not finite")
        return
    times = attr.GetTimeSamples() if attr.GetNumTimeSamples() else []
    for time in times[:MAX_SAMPLES]:
        sample = attr.Get(time)
        if not is_finite(sample):
            ctx.issue("error", "TRANSFORM_NAN", prim_path, f"{name} at time {time:g} = {shown(sample)}{whose}: not finite "
                                                           f"(a time sample; the runtime reads the default time)")
            return
    if times and value is None:
        ctx.issue("warning", "TIME_SAMPLED_TRANSFORM", prim_path,
                  f"{name}{whose} has {len(times)} time sample(s) (t={times[0]:g}: {shown(attr.Get(times[0]))}) and no "
                  f"default value: the runtime reads the default time, where this op adds nothing")
