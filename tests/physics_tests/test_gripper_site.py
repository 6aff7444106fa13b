"""Gripper sites as converters write them, and `simready-physics gripper-site`, the one command that adds a FET028 site.

An MJCF site (a prim with MjcSiteAPI / NewtonSiteAPI, as mujoco-usd-converter writes robosuite's grip_site) that lies
between the fingers makes the asset a gripper without a FET028 site (SKIP, with the command in the hint); one outside
the fingers (ft_frame on the palm) is not taken. The command writes only its layer, refuses links, foreign files and the
asset itself as the project's output rules do, derives the forward axis, grip line and opening from the jaws, and the
site it writes is read back and judged: the fixture gripper PASSes through it, its reversed twin FAILs JAW_REVERSED."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from omni.simready.physics_validator.cli import main
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.core.usd import read_asset
from tests.fixtures.manipulation import build_gripper
from tests.fixtures.runs import run_test
from tests.fixtures.usd_assets import box_asset

SPHERE = "gripper_close_lift_sphere"


def _snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {str(p.relative_to(folder)): (p.stat().st_mtime_ns, p.read_bytes()) for p in folder.rglob("*") if p.is_file()}


def test_a_converter_site_between_the_pads_makes_a_gripper_without_a_site(tmp_path):
    asset = build_gripper(tmp_path / "mjcf gripper.usda", site=False, converter_sites=True)
    result = run_test(asset, SPHERE, "physx")
    assert result.status is Status.SKIP and result.code == "NO_GRIPPER_SITE", result.reason
    assert "/Gripper/palm/grip_site (MjcSiteAPI, NewtonSiteAPI)" in result.reason and "ft_frame" not in result.reason
    assert any("gripper-site" in h and "--at /Gripper/palm/grip_site" in h and "'" in h for h in result.fix_hints)
    box = run_test(box_asset(tmp_path / "box.usda", size=0.1), SPHERE, "physx")
    assert box.status is Status.NOT_APPLICABLE and not box.fix_hints


def test_the_command_writes_only_its_layer_and_the_site_is_read_and_judged(tmp_path, capsys):
    home, out_dir = tmp_path / "asset", tmp_path / "out"
    home.mkdir()
    asset = build_gripper(home / "gripper.usda", site=False, converter_sites=True)
    twin = build_gripper(home / "reversed.usda", site=False, converter_sites=True, reversed=True)
    before = _snapshot(home)
    assert main(["gripper-site", str(asset), "--out", str(out_dir / "site.usda"), "--payload", "1"]) == 0
    said = capsys.readouterr().err
    assert "the converter's site /Gripper/palm/grip_site" in said and "opening: 80.0 mm" in said
    assert _snapshot(home) == before and sorted(os.listdir(out_dir)) == ["site.usda"]
    site = read_asset(str(out_dir / "site.usda")).markers.gripper_sites
    assert len(site) == 1 and not site[0].problems
    assert site[0].max_opening == pytest.approx(0.08, abs=1e-6) and site[0].max_payload == pytest.approx(1.0)
    assert np.allclose(site[0].forward, [0, 0, -1], atol=1e-6) and abs(site[0].grip_direction[0]) == pytest.approx(1.0)
    assert np.allclose(site[0].center, read_asset(str(asset)).markers.site_frames[0].pose.pos, atol=1e-6)
    passed = run_test(out_dir / "site.usda", SPHERE, "physx")
    assert passed.status is Status.PASS, passed.reason
    assert main(["gripper-site", str(twin), "--out", str(out_dir / "twin.usda")]) == 0
    assert "the jaws' lower limits close them" in capsys.readouterr().err
    backwards = run_test(out_dir / "twin.usda", SPHERE, "physx")
    assert backwards.status is Status.FAIL and backwards.code == "JAW_REVERSED", backwards.reason


def test_the_command_refuses_what_the_output_rules_refuse(tmp_path, capsys):
    asset = build_gripper(tmp_path / "gripper.usda", site=False, converter_sites=True)
    foreign = tmp_path / "notes.usda"
    foreign.write_text("#usda 1.0\n", encoding="utf-8")
    link = tmp_path / "link.usda"
    link.symlink_to(foreign)
    before = _snapshot(tmp_path)
    cases = {
        "link": ["--out", str(link)],
        "foreign file": ["--out", str(foreign)],
        "the asset": ["--out", str(asset)],
        "not usda": ["--out", str(tmp_path / "site.usdc")],
        "no prim": ["--out", str(tmp_path / "a.usda"), "--at", "/Gripper/nothing"],
        "bad opening": ["--out", str(tmp_path / "b.usda"), "--opening", "-1"],
        "parallel": ["--out", str(tmp_path / "c.usda"), "--forward", "1", "0", "0", "--grip", "1", "0", "0"],
    }
    for case, extra in cases.items():
        assert main(["gripper-site", str(asset), *extra]) == 2, case
        assert "Traceback" not in capsys.readouterr().err
    assert main(["gripper-site", str(tmp_path / "missing.usda"), "--out", str(tmp_path / "d.usda")]) == 2
    assert _snapshot(tmp_path) == before and link.is_symlink()  # nothing written, the link and its target untouched
    shutil.copy(asset, tmp_path / "copy.usda")
    mine = tmp_path / "mine.usda"
    assert main(["gripper-site", str(tmp_path / "copy.usda"), "--out", str(mine)]) == 0
    assert main(["gripper-site", str(tmp_path / "copy.usda"), "--out", str(mine), "--opening", "0.07"]) == 0  # its own
    assert read_asset(str(mine)).markers.gripper_sites[0].max_opening == pytest.approx(0.07)
