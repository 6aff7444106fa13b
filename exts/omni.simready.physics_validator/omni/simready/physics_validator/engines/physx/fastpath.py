"""The per-step native calls without ovphysx's Python wrapper around them: one ctypes call each.

Measured on the pinned 6-DOF arm (2-core CPU, quiet machine): `TensorBinding.read` into a reused buffer costs
3.96 µs, of which the native call is 0.90 µs (the rest: a lock, destroyed/writeable checks, the DLPack producer
check, attribute lookups); `PhysX.step_sync` adds ≈ 4.7 µs of Python to a 28 µs step (it drains three
deferred-release queues through closures every call). With three reads, a target write and a step per physics
step that is ≈ 15 µs of a 45 µs bare loop.

What is called is exactly what ovphysx's own fast path calls: a binding caches, after its first successful
read or write of a buffer, the native function, the instance and binding handles and the DLPack descriptor of
that buffer (`_read_cache` / `_write_cache`); `direct_call` takes those, so the first call of every buffer goes
through the public method. A step goes through the public `step_sync` whenever one of its deferred-release
queues holds something. Any missing attribute (another ovphysx version) means the public calls, unchanged; a
failing read or write is repeated through the public method, which raises with the runtime's message (a failing
step raises the same error the public `step_sync` raises).

Safe here because the engine owns everything the skipped checks guard: one thread drives an engine, its numpy
buffers are host memory that never moves, and the bindings are destroyed (and these calls dropped) before the
instance (`StateIO.close`, `attachments.Attachment.release`).
"""

from __future__ import annotations

from typing import Callable


def direct_call(binding, buffer, write: bool = False) -> Callable[[], object] | None:
    """The native read (or write) of `buffer` through `binding`, after one public call with that very buffer;
    None when the binding holds no cache for it. Returns the native result (status 0 = success)."""
    entry = getattr(binding, "_write_cache" if write else "_read_cache", None)
    try:
        if entry is None or entry.tensor is not buffer:
            return None
        fn, sdk, handle, pointer = entry.c_func, entry.sdk_handle, entry.bind_handle, entry.dl_ptr
    except AttributeError:
        return None
    if write:
        def write_call(entry=entry) -> object:  # the entry keeps the descriptor alive
            return fn(sdk, handle, pointer, None)

        return write_call

    def read_call(entry=entry) -> object:
        return fn(sdk, handle, pointer)

    return read_call


class Stepper:
    """`physx.step_sync(dt)` as one native call while ovphysx has no deferred release queued (else the public call)."""

    def __init__(self, physx, dt: float):
        self.physx, self.dt = physx, float(dt)
        try:
            self._native = physx._lib.ovphysx_step_sync
            self._handle = physx._omni_physx_sdk_handle.value
            physx._pending_read_releases, physx._pending_write_releases  # noqa: B018 - present in this version?
        except AttributeError:
            self._native = None

    def __call__(self) -> None:
        physx = self.physx
        if (self._native is None or physx._pending_read_releases or physx._pending_write_releases
                or getattr(physx, "_session_cleanups", None)):
            physx.step_sync(self.dt)
            return
        if self._native(self._handle, self.dt).status:  # as the public call says it
            raise RuntimeError(f"step_sync failed: {physx._get_last_error()}")
