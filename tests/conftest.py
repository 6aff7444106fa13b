"""Shared pytest setup: quiet third-party warnings, locate ../shared/assets, common fixtures."""

from __future__ import annotations

import warnings

import pytest

from tests.fixtures.usd_assets import SHARED_ASSETS

warnings.filterwarnings("ignore", message="Failed to find system libvulkan")


@pytest.fixture(scope="session")
def shared_assets():
    if not SHARED_ASSETS.is_dir():
        pytest.skip(f"shared assets not found at {SHARED_ASSETS}")
    return SHARED_ASSETS


@pytest.fixture(scope="session")
def physx_available():
    try:
        from omni.simready.physics_validator.engines import engine_class

        engine_class("physx")
    except Exception as exc:  # noqa: BLE001
        pytest.skip(f"physx engine not importable: {exc}")
    return True
