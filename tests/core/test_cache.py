"""Cache keys: the asset's content hash follows its layers; every verdict input changes the key."""

from __future__ import annotations

import shutil

from pxr import Sdf

from tests.fixtures.batch import layered_asset
from omni.simready.physics_validator.core.cache import ResultCache, asset_content_hash, asset_dependencies, result_cache_key
from omni.simready.physics_validator.core.results import TestResult
from omni.simready.physics_validator.core.status import Status
from tests.fixtures.usd_assets import box_asset


def test_dependencies_include_the_sublayer(tmp_path):
    root = layered_asset(tmp_path / "lib" / "robot.usda")
    files, unresolved = asset_dependencies(root)
    assert files[0] == root.resolve()
    assert (tmp_path / "lib" / "Payload" / "robot_body.usda").resolve() in files
    assert unresolved == []


def test_editing_a_sublayer_changes_the_hash_but_an_unrelated_file_does_not(tmp_path):
    root = layered_asset(tmp_path / "lib" / "robot.usda")
    before = asset_content_hash(root)
    box_asset(tmp_path / "lib" / "Payload" / "unrelated.usda")  # same folder, not referenced
    assert asset_content_hash(root) == before
    body = Sdf.Layer.FindOrOpen(str(tmp_path / "lib" / "Payload" / "robot_body.usda"))
    body.GetAttributeAtPath("/Asset/Body/Geom.size").default = 0.2
    body.Save()
    assert asset_content_hash(root) != before
    assert root.read_bytes() == (tmp_path / "lib" / "robot.usda").read_bytes()  # the root file itself is unchanged


def test_a_copied_library_keeps_its_hashes(tmp_path):
    root = layered_asset(tmp_path / "lib" / "robot.usda")
    shutil.copytree(tmp_path / "lib", tmp_path / "copy")
    assert asset_content_hash(tmp_path / "copy" / "robot.usda") == asset_content_hash(root)


def test_missing_and_unparsable_files(tmp_path):
    assert asset_content_hash(tmp_path / "nope.usda") is None
    broken = tmp_path / "broken.usda"
    broken.write_text("#usda 1.0\n( not usd", encoding="utf-8")
    first = asset_content_hash(broken)
    assert first is not None
    broken.write_text("#usda 1.0\n( still not usd", encoding="utf-8")
    assert asset_content_hash(broken) != first


def test_a_missing_sublayer_enters_the_hash_and_its_arrival_changes_it(tmp_path):
    root = Sdf.Layer.CreateNew(str(tmp_path / "a.usda"))
    root.subLayerPaths.append("./later.usda")
    root.Save()
    missing = asset_content_hash(tmp_path / "a.usda")
    _, unresolved = asset_dependencies(tmp_path / "a.usda")
    assert any("later.usda" in u for u in unresolved)
    box_asset(tmp_path / "later.usda")
    assert asset_content_hash(tmp_path / "a.usda") != missing


def test_every_verdict_input_changes_the_key():
    base = dict(
        content_hash="c" * 64,
        test_name="ground_drop",
        test_version="3.0.0",
        test_config={"rest_tolerance": 0.02},
        run_config={"watchdog_seconds": 120.0, "video": False, "isolate": True},
        engine_version="sapien 3.0.3 / PhysX 5",
        tool_version="0.1.0",
    )
    key = result_cache_key(**base)
    assert key == result_cache_key(**base)
    variants = {
        "content_hash": "d" * 64,
        "test_name": "other",
        "test_version": "3.0.1",
        "test_config": {"rest_tolerance": 0.03},
        "run_config": {"watchdog_seconds": 60.0, "video": False, "isolate": True},
        "engine_version": "sapien 3.0.4 / PhysX 5",
        "tool_version": "0.2.0",
    }
    for field, value in variants.items():
        assert result_cache_key(**{**base, field: value}) != key, field
    # Crash isolation does not change a verdict: toggling it keeps the cache.
    assert result_cache_key(**{**base, "run_config": {**base["run_config"], "isolate": False}}) == key


def test_cache_never_serves_errors_or_results_whose_artifacts_are_gone(tmp_path):
    cache = ResultCache(tmp_path / "out")
    ok = TestResult(name="ground_drop", status=Status.FAIL, reason="stuck")
    cache.put("a" * 64, "x.usda", ok)
    assert cache.get("a" * 64).reason == "stuck"
    cache.put("b" * 64, "x.usda", TestResult(name="ground_drop", status=Status.ERROR, reason="hang"))
    assert cache.get("b" * 64) is None
    video = tmp_path / "v.mp4"
    video.write_bytes(b"x")
    cache.put("c" * 64, "x.usda", TestResult(name="ground_drop", status=Status.PASS, artifacts={"video": str(video)}))
    assert cache.get("c" * 64) is not None
    assert cache.get("c" * 64, "x.usda") is not None
    assert cache.get("c" * 64, "copy_of_x.usda") is None  # its video shows x.usda
    cache.put("d" * 64, "x.usda", ok)
    assert cache.get("d" * 64, "copy_of_x.usda") is not None  # no artifacts: identical content, identical verdict
    video.unlink()
    assert cache.get("c" * 64) is None
    (tmp_path / "out" / ".cache" / "results" / "aa" / ("a" * 64 + ".json")).write_text("{trunc", encoding="utf-8")
    assert cache.get("a" * 64) is None  # a damaged entry is a miss, not a crash
    assert cache.get("f" * 64) is None
