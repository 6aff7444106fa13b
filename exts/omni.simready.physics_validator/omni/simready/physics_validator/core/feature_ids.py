"""SimReady feature IDs: the names tier-core 2026.8 gives the features (`FET_022_PHYSX`), the pre-2026.8 names they
replace (`FET022_DRIVEN_JOINTS_PHYSX`), and which of a test's features a result on one engine validates.

NVIDIA's simready-benchmark 2026.8 keeps the old names as a temporary compatibility (`core/legacy_feature_ids.py`,
"Removal: delete this module ... once the supported asset corpus has been revalidated"): the table below is theirs.
Our tests declare the new names only; an old name given where a feature is asked for (`--tests`) is read as its new
name, with a notice saying so (`legacy_notice`).
"""

from __future__ import annotations

import re

# simready-benchmark 2026.8.0.post1, simready_benchmark/core/legacy_feature_ids.py: old name -> new name
LEGACY_FEATURE_IDS: dict[str, str] = {
    "FET000_CORE": "FET_000_STANDARD",
    "FET001_BASE_NEUTRAL": "FET_001_STANDARD",
    "FET002_BASE_NEUTRAL": "FET_002_STANDARD",
    "FET003_BASE_NEUTRAL": "FET_003_STANDARD",
    "FET003_BASE_PHYSX": "FET_003_PHYSX",
    "FET004_BASE_NEUTRAL": "FET_004_STANDARD",
    "FET004_BASE_PHYSX": "FET_004_PHYSX",
    "FET004_ROBOT_PHYSX": "FET_004_ROBOT_PHYSX",
    "FET005_BASE_NEUTRAL": "FET_005_STANDARD",
    "FET006_BASE_MDL": "FET_006_MDL",
    "FET006_BASE_USDPREVIEW": "FET_006_STANDARD",
    "FET007_BASE_NEUTRAL": "FET_007_STANDARD",
    "FET011_BASE_NEUTRAL": "FET_011_STANDARD",
    "FET021_ROBOT_CORE_RUNNABLE": "FET_021_STANDARD",
    "FET021_ROBOT_CORE_ISAAC": "FET_021_ISAAC",
    "FET022_DRIVEN_JOINTS_NEUTRAL": "FET_022_STANDARD",
    "FET022_DRIVEN_JOINTS_PHYSX": "FET_022_PHYSX",
    "FET022_DRIVEN_JOINTS_ISAAC": "FET_022_ISAAC",
    "FET023_ROBOT_MATERIALS": "FET_023_STANDARD",
    "FET024_BASE_ARTICULATION_NEUTRAL": "FET_024_STANDARD",
    "FET024_BASE_ARTICULATION_PHYSX": "FET_024_PHYSX",
    "FET030_PACKAGING_CORE": "FET_030_STANDARD",
    "FET031_PACKAGE_SELF_CONTAINED": "FET_031_STANDARD",
    "FET032_PACKAGING_INTROSPECTION": "FET_032_STANDARD",
    "FET033_SIMREADY_PACKAGING": "FET_033_STANDARD",
    "FET100_BASE_ISAACSIM": "FET_100_ISAAC",
}
_BY_KEY = {old.upper(): new for old, new in LEGACY_FEATURE_IDS.items()}
_FAMILY = re.compile(r"^FET_?(\d{3})(?=_|$)", re.IGNORECASE)
# the physics runtime a feature variant names, by the suffix of its new name
RUNTIME_SUFFIXES = {"PhysX": "_PHYSX", "Newton": "_NEWTON", "MuJoCo": "_MUJOCO"}


def canonical(feature: str) -> str:
    """The new name of a feature ID (an old name through the table, matched without case); anything else unchanged."""
    return _BY_KEY.get(feature.strip().upper(), feature)


def is_legacy(feature: str) -> bool:
    return feature.strip().upper() in _BY_KEY


def legacy_notice(feature: str) -> str:
    """The notice said when an old feature name is used."""
    return (f"{feature} is the pre-2026.8 name of the SimReady feature {canonical(feature)} (tier-core 2026.8 renamed "
            f"the features; the old names are a temporary compatibility): read as {canonical(feature)}")


def family(feature: str) -> str | None:
    """The family of a feature or family name in the new spelling ("FET022", "FET_022_PHYSX" -> "FET_022"), or None."""
    match = _FAMILY.match(canonical(feature))
    return f"FET_{match.group(1)}" if match else None


def runtime_of_engine(engine: str) -> str | None:
    """The physics runtime behind an engine name, inferred as simready-benchmark 2026.8 infers it for an engine config
    without one (`core/runtime_routing.engine_runtime`: "newton" in the name is Newton; "physx", "isaac" or "kit" is
    PhysX)."""
    name = engine.lower()
    if "newton" in name:
        return "Newton"
    if "mujoco" in name:
        return "MuJoCo"
    if "physx" in name or "isaac" in name or "kit" in name:
        return "PhysX"
    return None


def feature_for_engine(features: list[str] | tuple[str, ...], engine: str) -> str:
    """Which of a test's features a result on `engine` validates: the variant of that engine's runtime
    (FET_022_NEWTON for a Newton run), else the first declared; "" for a test with none."""
    if not features:
        return ""
    suffix = RUNTIME_SUFFIXES.get(runtime_of_engine(engine) or "")
    if suffix:
        for feature in features:
            if canonical(feature).upper().endswith(suffix):
                return canonical(feature)
    return canonical(features[0])
