"""NVIDIA's validation record (`--format simready`): `<asset folder>/.metadata/<folder>_validation.json`, the file the
SimReady benchmark 2026.8.0.post1 reads first for an asset (record source `metadata_sidecar`), written into OUT by
default and beside the asset only when asked; read back by NVIDIA's own validation-source chain (the
`simready-benchmark` wheel in its Python 3.12 venv, the one tests/reports/test_simready_results.py installs)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest

from omni.simready.physics_validator.core.results import AssetResult, EngineInfo, RunReport
from omni.simready.physics_validator.reports.validation_record import Profile, write_validation_records
from tests.fixtures.runs import require_engine, run_test
from tests.fixtures.usd_assets import box_asset
from tests.reports.test_simready_results import simready_python  # noqa: F401 - NVIDIA's venv, a fixture
from tests.test_cli import run_cli

READ_BACK = """
import argparse, json, sys
from simready_benchmark.cli.main import _build_validation_chain
chain = _build_validation_chain(argparse.Namespace(use_asset_search=False, project_config=None))  # their default chain
out = {}
for path in sys.argv[1:]:
    v = chain.read(path)
    out[path] = None if v is None else {"source": v.source, "profile": v.profile, "version": v.profile_version,
                                        "passed": sorted(v.validated_features or []), "failed": sorted(v.failed_features or []),
                                        "failing": v.failing_requirements or {}}
print(json.dumps(out))
"""
PROFILE = Profile("Robotics-Prop", "3.2.0")


def nvidia_reads(python, *paths) -> dict:
    done = subprocess.run([str(python), "-c", READ_BACK, *map(str, paths)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A box that passes ground_drop and a kinematic one that fails it (decided before the first step), on physx."""
    engine = require_engine("physx")
    folder = tmp_path_factory.mktemp("props") / "crates"
    good, stuck = box_asset(folder / "good.usda"), box_asset(folder / "stuck.usda", kinematic=True)
    assets = [AssetResult(path=str(p), sha256=digest(p), tests=[run_test(p, "ground_drop", engine)]) for p in (good, stuck)]
    return RunReport(engine=EngineInfo(name="physx", version="ovphysx test"), assets=assets), folder


def test_the_record_goes_into_out_and_nowhere_else(run, tmp_path):
    report, folder = run
    written, problems, not_written = write_validation_records(report, tmp_path / "out", PROFILE)
    assert problems == [] and not_written == []
    record_path = tmp_path / "out" / "validation" / "crates" / ".metadata" / "crates_validation.json"
    assert [path for _, path in written] == [record_path]
    assert not (folder / ".metadata").exists()  # beside the asset only when asked
    payload = json.loads(record_path.read_text())
    assert set(payload) == {"good.usda", "stuck.usda"}
    good, stuck = payload["good.usda"], payload["stuck.usda"]
    assert good["profile_id"] == "Robotics-Prop" and good["profile_version"] == "3.2.0"
    assert good["features_summary"]["FET_003_PHYSX"]["passed"] is True
    assert stuck["features_summary"]["FET_003_PHYSX"] == {
        "passed": False, "failing requirements": ["ground_drop KINEMATIC_BODY"],
        "tests": {"ground_drop": {"status": "FAIL", "code": "KINEMATIC_BODY", "version": "3.2.0"}}}
    assert good["physics_validator"]["engines"] == ["physx"] and good["physics_validator"]["sha256"]


def test_nvidias_reader_finds_our_record_first(run, tmp_path, simready_python):  # noqa: F811 - the imported fixture
    """Their default chain (metadata sidecar, receipt, sibling JSON, USD stamp) finds the record in .metadata/ first:
    in the OUT copy, and beside the asset once it is asked for (the asset's file unchanged)."""
    report, folder = run
    before = {p: digest(p) for p in folder.glob("*.usda")}
    write_validation_records(report, tmp_path / "out", PROFILE, beside=True)
    mirror = tmp_path / "out" / "validation" / "crates"
    read = nvidia_reads(simready_python, folder / "good.usda", folder / "stuck.usda", mirror / "good.usda")
    good, stuck = read[str(folder / "good.usda")], read[str(folder / "stuck.usda")]
    assert good == {"source": "metadata_sidecar", "profile": "Robotics-Prop", "version": "3.2.0",
                    "passed": ["FET_003_PHYSX"], "failed": [], "failing": {}}
    assert stuck["source"] == "metadata_sidecar" and stuck["failed"] == ["FET_003_PHYSX"]
    assert stuck["failing"] == {"FET_003_PHYSX": ["ground_drop KINEMATIC_BODY"]}
    assert read[str(mirror / "good.usda")]["passed"] == ["FET_003_PHYSX"]
    assert {p: digest(p) for p in folder.glob("*.usda")} == before
    assert sorted(os.listdir(folder / ".metadata")) == ["crates_validation.json"]  # no temp file left


def test_a_submitted_record_keeps_its_profile_and_features(run, tmp_path):
    """`simready-manage submit`'s record (the validator's features) is merged, not replaced: its profile and
    FET_000/FET_001 stay, FET_003_PHYSX is ours."""
    report, folder = run
    meta = folder / ".metadata"
    meta.mkdir(exist_ok=True)
    submitted = {"good.usda": {"profile_id": "Robotics-Prop", "profile_version": "3.1.0", "simready_validate_version": "2026.8",
                               "features_summary": {"FET_000_STANDARD": {"passed": True}, "FET_001_STANDARD": {"passed": True},
                                                    "FET_003_PHYSX": {"passed": False}}}}
    (meta / "crates_validation.json").write_text(json.dumps(submitted))
    write_validation_records(report, tmp_path / "out", None, beside=True)
    for path in (meta / "crates_validation.json", tmp_path / "out/validation/crates/.metadata/crates_validation.json"):
        good = json.loads(path.read_text())["good.usda"]
        assert good["profile_version"] == "3.1.0" and good["simready_validate_version"] == "2026.8"
        assert {f: v["passed"] for f, v in good["features_summary"].items()} == {
            "FET_000_STANDARD": True, "FET_001_STANDARD": True, "FET_003_PHYSX": True}


@pytest.mark.parametrize("planted", ["metadata_link", "record_link", "record_not_json"])
def test_beside_the_asset_a_link_or_a_broken_record_is_refused(run, tmp_path, planted):
    """The one write outside OUT refuses a link (a folder or the file) and never overwrites what it cannot merge;
    the OUT copy is still written (from what could be read) and the problem said."""
    report, _ = run
    folder = tmp_path / "crates"
    folder.mkdir()
    for asset in report.assets:
        (folder / Path(asset.path).name).write_bytes(Path(asset.path).read_bytes())
    moved = report.model_copy(update={"assets": [a.model_copy(update={"path": str(folder / Path(a.path).name)})
                                                 for a in report.assets]})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "crates_validation.json").write_text("{}")
    if planted == "metadata_link":
        (folder / ".metadata").symlink_to(elsewhere, target_is_directory=True)
    else:
        (folder / ".metadata").mkdir()
        record = folder / ".metadata" / "crates_validation.json"
        record.symlink_to(elsewhere / "crates_validation.json") if planted == "record_link" else record.write_text("{oops")
    written, problems, not_written = write_validation_records(moved, tmp_path / "out", PROFILE, beside=True)
    assert len(not_written) == 1 and "not written beside the asset" in not_written[0]  # the CLI exits 3 on it
    assert all("does not carry it" in p for p in problems) and bool(problems) == (planted == "record_not_json")
    assert (elsewhere / "crates_validation.json").read_text() == "{}"  # never written through the link
    if planted == "record_not_json":
        assert (folder / ".metadata" / "crates_validation.json").read_text() == "{oops"  # not overwritten
    assert [label for label, _ in written] == ["SimReady validation record"]  # OUT's, ours alone


def test_the_command_line_writes_beside_the_asset_only_when_asked(tmp_path):
    assets = tmp_path / "crate"
    box = box_asset(assets / "crate.usda")
    code, _, stderr = run_cli("validate", box, "--tests", "ground_drop", "--out", tmp_path / "out", "--no-video",
                              "--format", "simready", "--simready-profile", "Robotics-Prop@3.2.0")
    assert code == 0, stderr
    assert (tmp_path / "out/validation/crate/.metadata/crate_validation.json").is_file()
    assert not (assets / ".metadata").exists()
    code, stdout, stderr = run_cli("validate", box, "--tests", "ground_drop", "--out", tmp_path / "out2", "--no-video",
                                   "--format", "simready", "--record-beside-asset")
    assert code == 0, stderr
    record = json.loads((assets / ".metadata" / "crate_validation.json").read_text())["crate.usda"]
    assert record["features_summary"]["FET_003_PHYSX"]["passed"] is True and record["profile_id"] == ""
    assert "beside the asset" in stdout + stderr
    code, _, stderr = run_cli("validate", box, "--tests", "ground_drop", "--out", tmp_path / "out3", "--record-beside-asset")
    assert code == 2 and "need --format simready" in stderr


def test_a_record_beside_the_asset_that_could_not_be_written_exits_3(tmp_path):
    """--record-beside-asset with `.metadata` a link there: the record is refused (nothing written through the link)
    and the run, whose box PASSes, exits 3 with the error: the record beside the asset is not this run's (it exited 0
    on a warning). Its twin, the same run with no link, exits 0 (the test above)."""
    assets = tmp_path / "crate"
    box = box_asset(assets / "crate.usda")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (assets / ".metadata").symlink_to(elsewhere, target_is_directory=True)
    code, _, stderr = run_cli("validate", box, "--tests", "ground_drop", "--out", tmp_path / "out", "--no-video",
                              "--format", "simready", "--record-beside-asset")
    assert code == 3, stderr
    assert "not written beside the asset" in stderr and "the run exits 3 whatever its verdicts" in stderr
    assert not any(elsewhere.iterdir())
    assert (tmp_path / "out/validation/crate/.metadata/crate_validation.json").is_file()  # OUT's copy is there
