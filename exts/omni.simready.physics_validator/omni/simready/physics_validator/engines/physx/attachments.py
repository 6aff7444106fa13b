"""The PhysX attachments of this process: one SDK tolerance scale per process, so any sequence of assets works.

ovphysx shares one PhysX SDK between all instances of a process, and the SDK's tolerance scale (its length
unit: 1 / metersPerUnit of the attached stage) is process-wide. An instance attaching a stage in centimetres
while another instance still holds an attachment in metres is refused — `attach_ovstage: ... physics source
scan failed`, with the runtime's record "Attachment tolerance scale is incompatible with shared SDK borrowers
(attachments=1, ...)". Stage units are the only trigger (measured: up axis and kilogramsPerUnit do not matter).

An engine's attachment is released by `close()`. But an engine nobody closed stays attached for as long as it
lives, and one caught in a reference cycle lives until the cyclic garbage collector runs: a recorder observes
its TestContext, which holds the engine (tests and scripts that drive a `TestSession` without closing its
engine left a centimetre box attached, and the next metre asset in that process failed to load).

So every attachment is recorded here, and before an engine attaches a stage at other units than those held:
1. garbage is collected: an engine dropped without `close()` hands its attachment over through its finalizer, and
   it is released here, outside the collector (`Attachment.release`, in order: bindings, detach, PhysX instance,
   ovstage; `_COLLECTED` says why not inside it);
2. an engine still referenced but idle (the validator runs one engine at a time in a process: the CLI's
   workers, the panel's runner, pytest) is released, and says so if it is used again (`EngineError`).

Same-unit attachments coexist and are left alone.
"""

from __future__ import annotations

import gc
import logging
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .reads import StateIO

LOG = logging.getLogger(__name__)

# id(engine) -> (weak reference to the engine, its Attachment)
_LIVE: dict[int, tuple[weakref.ref, "Attachment"]] = {}
# Attachments of engines collected without close(), released at the next safe point (`make_room`, in the thread that
# loads an engine), never inside the collection: a weakref callback runs wherever the garbage collector does, also
# inside ovphysx's native log callback, where ovphysx refuses an explicit destroy() and hands the dropped instance to
# a finalizer thread of its own, whose teardown races this thread's next calls (a CI worker died with signal 11: the
# ovphysx-finalizer thread in _finalize_unreleased while the main thread was in create_tensor_binding).
_COLLECTED: list["Attachment"] = []


class Attachment:
    """What one engine holds of the runtime: released in order, exactly once, even if the engine is never closed."""

    def __init__(self, physx, stage, meters_per_unit: float):
        self.physx, self.stage, self.meters_per_unit = physx, stage, float(meters_per_unit)
        self.state_io: StateIO | None = None

    @property
    def held(self) -> bool:
        return self.physx is not None

    def release(self) -> None:
        """Bindings, detach, PhysX instance, ovstage (ovphysx refuses to destroy an instance whose read arrays are
        still referenced: the bindings go first). Never raises."""
        state_io, physx, stage = self.state_io, self.physx, self.stage
        self.state_io = self.physx = self.stage = None
        steps = []
        if state_io is not None:
            steps.append(state_io.close)
        if physx is not None:
            steps += [lambda: physx.wait_task(physx.detach_ovstage()), physx.destroy]
        if stage is not None:
            steps.append(stage.destroy)
        for step in steps:
            try:
                step()
            except Exception:  # noqa: BLE001 - releasing never fails a verdict
                LOG.debug("ovphysx release step failed", exc_info=True)


def register(engine, attachment: Attachment) -> None:
    """Record `engine`'s attachment; released with the engine if it is collected without close()."""
    key = id(engine)

    def on_collected(_ref: weakref.ref, k: int = key, a: Attachment = attachment) -> None:
        _collected(k, a)

    _LIVE[key] = (weakref.ref(engine, on_collected), attachment)


def unregister(engine) -> None:
    _LIVE.pop(id(engine), None)


def _collected(key: int, attachment: Attachment) -> None:
    entry = _LIVE.get(key)
    if entry is not None and entry[1] is attachment:
        del _LIVE[key]
    _COLLECTED.append(attachment)  # released by release_collected(), outside the collector


def release_collected() -> None:
    """Release the attachments of engines collected without close() (in order: bindings, detach, instance, stage)."""
    while _COLLECTED:
        _COLLECTED.pop().release()


def _conflicts(engine, meters_per_unit: float) -> list:
    out = []
    for ref, attachment in list(_LIVE.values()):
        other = ref()
        if other is not None and other is not engine and attachment.held and attachment.meters_per_unit != meters_per_unit:
            out.append(other)
    return out


def make_room(engine, meters_per_unit: float) -> None:
    """Before `engine` attaches a stage at `meters_per_unit`: release the attachments of other engines at other
    units (collected ones first; then idle ones, which `release_for_units` marks as closed)."""
    release_collected()
    if not _conflicts(engine, meters_per_unit):
        return
    gc.collect()  # engines dropped without close() but held by a reference cycle: collected, then released here
    release_collected()
    for other in _conflicts(engine, meters_per_unit):
        LOG.info("releasing a physx engine still attached at %g m per unit: a stage at %g m per unit is loading "
                 "(one PhysX SDK tolerance scale per process)", _LIVE[id(other)][1].meters_per_unit, meters_per_unit)
        other.release_for_units(meters_per_unit)


def live_units() -> list[float]:
    """metersPerUnit of every attachment held in this process (tests, diagnostics)."""
    return [a.meters_per_unit for ref, a in _LIVE.values() if ref() is not None and a.held]
