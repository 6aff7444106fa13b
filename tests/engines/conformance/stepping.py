"""Helpers the conformance cases share: step for a while, read the lowest point, read a body position."""

from __future__ import annotations

import numpy as np


def run(engine, seconds: float, each_step=None) -> None:
    for _ in range(int(round(seconds / engine.dt))):
        if each_step is not None:
            each_step()
        engine.step()


def min_z(engine) -> float:
    return float(engine.bounds()[0][2])


def body_position(engine, path: str) -> np.ndarray:
    return engine.body_poses()[path][0]
