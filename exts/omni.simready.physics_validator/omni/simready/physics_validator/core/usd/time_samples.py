"""Time-sampled physics attributes: which value the runtime reads, and no NaN in any sample.

A physics runtime reads an attribute at the default time: `physics:kinematicEnabled.timeSamples = {0: 1}` with no
default reads as the schema's fallback (false), so the body falls although its author made it kinematic, and a
`physics:mass` sampled NaN was ignored without a word (issue 42). Each such attribute is said, with the value read at
the default time and where it came from (TIME_SAMPLED_PHYSICS, a warning every verdict of the asset carries); a
non-finite sample is an error (TIME_SAMPLE_NAN), as a non-finite default is.
"""

from __future__ import annotations

from .read_context import ReadContext
from .xform_ops import MAX_SAMPLES, is_finite, shown

# Attribute namespaces a physics runtime reads (UsdPhysics, PhysX, Newton, MuJoCo, drives, limits, joint state).
PHYSICS_PREFIXES = ("physics:", "physx", "newton:", "mjc:", "drive:", "limit:", "state:")
SAY_AT_MOST = 20  # TIME_SAMPLED_PHYSICS warnings per asset; the rest are counted in the last one


def check_time_samples(ctx: ReadContext) -> None:
    from pxr import Usd

    said = 0
    quiet = 0
    for prim in Usd.PrimRange(ctx.stage.GetPseudoRoot()):
        for attr in prim.GetAuthoredAttributes():
            name = attr.GetName()
            if not name.startswith(PHYSICS_PREFIXES) or not attr.GetNumTimeSamples():
                continue
            times = attr.GetTimeSamples()
            bad = next((t for t in times[:MAX_SAMPLES] if not is_finite(attr.Get(t))), None)
            path = str(prim.GetPath())
            read = attr.Get(Usd.TimeCode.Default())
            source = _source(attr)
            if bad is not None:
                ctx.issue("error", "TIME_SAMPLE_NAN", path, f"{name} at time {bad:g} = {shown(attr.Get(bad))}: not finite "
                                                            f"(the runtime reads the default time: {shown(read)}, {source})")
            elif said < SAY_AT_MOST:
                said += 1
                ctx.issue("warning", "TIME_SAMPLED_PHYSICS", path,
                          f"{name} at {path} has {len(times)} time sample(s) (t={times[0]:g}: {shown(attr.Get(times[0]))}): "
                          f"the runtime reads the default time: {shown(read)} ({source}); author the value as a default")
            else:
                quiet += 1
    if quiet:
        ctx.issue("warning", "TIME_SAMPLED_PHYSICS", "/", f"{quiet} more time-sampled physics attribute(s) not listed")


def _source(attr) -> str:
    from pxr import Usd

    kind = attr.GetResolveInfo(Usd.TimeCode.Default()).GetSource()
    if kind == Usd.ResolveInfoSourceDefault:
        return "its authored default"
    if kind == Usd.ResolveInfoSourceFallback:
        return "the schema's fallback: no default authored"
    return "no value: no default authored and no fallback"
