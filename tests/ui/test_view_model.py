"""The panel's view-model: state transitions, verdict rows, threshold edits, re-runs, video player,
exports; and real runs through the headless engine (SAPIEN PhysX) via HeadlessRunner."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from tests.fixtures.kit import make_arm, make_box
from omni.simready.physics_validator.core.results import ExcludedJoint, JointRow, TestResult
from omni.simready.physics_validator.core.status import Status
from omni.simready.physics_validator.ui.headless_runner import HeadlessRunner
from omni.simready.physics_validator.ui.rows import merge_joint_result, narrow_to_joint, rows_from_results
from omni.simready.physics_validator.ui.video import VideoModel
from omni.simready.physics_validator.ui.view_model import PanelState, ValidatorViewModel


class RecordingRunner:
    """Runner protocol stand-in for the live Kit runner: records what the panel asks for and lets the
    test deliver sink calls later, as the Kit runner does across app frames. No physics is faked:
    physics runs are covered by the HeadlessRunner tests below."""

    def __init__(self):
        self.requests = []
        self.sinks = []
        self.cancelled = 0

    def start(self, request, sink):
        self.requests.append(request)
        self.sinks.append(sink)

    def cancel(self):
        self.cancelled += 1


def _result(name="velocity_limit", status=Status.FAIL, rows=(("joint1", Status.PASS), ("joint2", Status.FAIL))):
    return TestResult(
        name=name,
        status=status,
        reason="1 of 2 joints exceeded its velocity limit",
        metrics={"max_ratio": 1.31234},
        joints=[
            JointRow(
                joint=j,
                path=f"/Arm/{j}",
                status=s,
                measured={"max_velocity": 2.5},
                limits={"velocity_limit": 3.14159},
                fix_hints=[] if s == Status.PASS else [f"Lower {j}'s drive gains"],
            )
            for j, s in rows
        ],
        excluded_joints=[ExcludedJoint(joint="finger", path="/Arm/finger", why="passive joint")],
        fix_hints=["Check physxJoint:maxJointVelocity"],
    )


@pytest.fixture
def panel():
    vm = ValidatorViewModel(runner=RecordingRunner())
    vm.set_stage("/assets/arm.usda", "/Arm")
    return vm


# -- state transitions --------------------------------------------------------------------------------
def test_validate_runs_then_finishes(panel):
    topics = []
    panel.subscribe(topics.append)
    assert panel.state == PanelState.IDLE and panel.can_validate and not panel.can_stop
    request = panel.validate()
    assert panel.state == PanelState.RUNNING and panel.can_stop and not panel.can_validate
    assert request.tests == [t.name for t in panel.registry.select(None)] and request.target == "/Arm" and request.kind == "all"
    assert "ik_target_reach" not in request.tests  # it SKIPs wherever we run: unticked unless the user ticks it
    panel.on_test_started("ground_drop")
    panel.on_progress("ground_drop", 5.0, "settling")
    assert 0 < panel.progress < 1 / len(request.tests)
    assert "ground_drop" in panel.progress_text and "settling" in panel.progress_text
    panel.on_result(TestResult(name="ground_drop", status=Status.PASS))
    assert panel.progress == pytest.approx(1 / len(request.tests))
    panel.on_finished(complete=True)
    assert panel.state == PanelState.DONE and panel.complete and panel.progress == 1.0
    assert panel.progress_text.startswith("done: 1 PASS")
    assert {"state", "progress", "rows"} <= set(topics)


def test_stop_cancels_the_runner_and_marks_the_run_incomplete(panel):
    panel.validate()
    panel.stop()
    assert panel.state == PanelState.STOPPING and panel.runner.cancelled == 1
    assert not panel.can_validate and not panel.can_stop
    panel.stop()  # a second press does nothing
    assert panel.runner.cancelled == 1
    panel.on_finished(complete=True)  # whatever the runner says, a stopped run is not complete
    assert panel.state == PanelState.DONE and not panel.complete
    assert panel.progress_text.startswith("stopped")
    report = panel.report()
    assert not report.complete and report.not_run == panel.last_request.tests


def test_validate_is_refused_with_a_reason(panel):
    for option in panel.tests:
        panel.set_test_enabled(option.name, False)
    assert panel.validate() is None and panel.message == "no test selected"
    panel.set_test_enabled("ground_drop", True)
    panel.set_stage("", None)
    assert panel.validate() is None and "nothing to validate" in panel.message
    assert ValidatorViewModel(runner=None).validate() is None
    panel.set_stage("/a.usda", "/A")
    panel.validate()
    assert panel.validate() is None and panel.message == "a validation is already running"
    assert len(panel.runner.requests) == 1


def test_target_is_the_selection_when_one_prim_is_selected(panel):
    assert panel.target == "/Arm" and "default prim" in panel.target_text
    panel.set_selection(["/Arm/link1"])
    assert panel.target == "/Arm/link1" and "selection" in panel.target_text
    panel.set_selection(["/Arm/link1", "/Arm/link2"])
    assert panel.target == "/Arm"
    panel.set_selection(["/Arm/link2"])
    assert panel.validate().target == "/Arm/link2"


def test_unsubscribe_stops_notifications(panel):
    topics = []
    unsubscribe = panel.subscribe(topics.append)
    unsubscribe()
    panel.set_selection(["/Arm"])
    assert topics == []


# -- verdict rows -------------------------------------------------------------------------------------
def test_rows_from_results_nest_joints_and_exclusions_with_fix_hints():
    rows = rows_from_results([_result()])
    assert len(rows) == 1
    test_row = rows[0]
    assert (test_row.name, test_row.status, test_row.level) == ("velocity_limit", "FAIL", 0)
    assert test_row.fix_hints == ["Check physxJoint:maxJointVelocity"]
    assert "max_ratio=1.312" in test_row.measured
    joints = [(c.name, c.status, c.kind) for c in test_row.children]
    assert joints == [("joint1", "PASS", "joint"), ("joint2", "FAIL", "joint"), ("finger", "EXCLUDED", "excluded")]
    failing = test_row.children[1]
    assert failing.joint == "/Arm/joint2" and failing.can_rerun_joint and failing.level == 1
    assert failing.fix_hints == ["Lower joint2's drive gains"]
    assert failing.limits == "velocity_limit=3.142"
    assert not test_row.children[2].can_rerun_joint


def test_rows_follow_registry_order(panel):
    panel.validate()
    panel.on_result(TestResult(name="velocity_limit", status=Status.PASS))
    panel.on_result(TestResult(name="ground_drop", status=Status.SKIP))
    names = panel.registry.names()
    expected = sorted(["velocity_limit", "ground_drop"], key=names.index)
    assert [r.name for r in panel.rows()] == expected
    assert panel.counts()["SKIP"] == 1 and panel.counts()["PASS"] == 1


# -- thresholds -------------------------------------------------------------------------------------------
def test_thresholds_are_shown_from_the_pydantic_model(panel):
    fields = {f.key: f for f in panel.thresholds("ground_drop")}
    assert fields["rest_tolerance_m"].value == pytest.approx(0.02)
    assert fields["rest_tolerance_m"].description
    assert fields["physics_fps"].type_name == "float"


def test_threshold_edit_accepted(panel):
    outcome = panel.edit_threshold("ground_drop", "rest_tolerance_m", "0.05")
    assert outcome.ok and "rest_tolerance_m" in outcome.message
    assert panel.config.for_test("ground_drop").rest_tolerance_m == pytest.approx(0.05)
    assert panel.validate().config.for_test("ground_drop").rest_tolerance_m == pytest.approx(0.05)


@pytest.mark.parametrize(
    "key, text, fragment",
    [
        ("rest_tolerance_m", "-1", "greater than 0"),
        ("rest_tolerance_m", "abc", "rest_tolerance_m"),
        ("rest_tolernce", "0.1", "unknown key 'ground_drop.rest_tolernce'"),
    ],
)
def test_threshold_edit_rejected_with_a_message(panel, key, text, fragment):
    before = panel.config.for_test("ground_drop").model_dump()
    outcome = panel.edit_threshold("ground_drop", key, text)
    assert not outcome.ok and fragment in outcome.message and panel.message == outcome.message
    assert panel.config.for_test("ground_drop").model_dump() == before


def test_thresholds_are_frozen_while_running(panel):
    panel.validate()
    outcome = panel.edit_threshold("ground_drop", "rest_tolerance_m", "0.05")
    assert not outcome.ok and "while a validation runs" in outcome.message
    panel.on_finished()
    assert panel.edit_threshold("ground_drop", "rest_tolerance_m", "0.05").ok
    panel.reset_thresholds("ground_drop")
    assert panel.config.for_test("ground_drop").rest_tolerance_m == pytest.approx(0.02)


def test_a_running_request_keeps_its_config_when_thresholds_change_later(panel):
    request = panel.validate()
    panel.on_finished()
    panel.edit_threshold("ground_drop", "rest_tolerance_m", "0.07")
    assert request.config.for_test("ground_drop").rest_tolerance_m == pytest.approx(0.02)


# -- re-runs ------------------------------------------------------------------------------------------
def test_rerun_test_and_joint_build_the_right_requests(panel):
    panel.validate()
    panel.on_result(_result())
    panel.on_finished()
    test_request = panel.rerun_test("velocity_limit")
    assert (test_request.tests, test_request.joint, test_request.kind) == (["velocity_limit"], None, "test")
    panel.on_finished()
    joint_row = panel.rows()[0].children[1]
    joint_request = panel.rerun_joint(joint_row.test, joint_row.joint)
    assert (joint_request.tests, joint_request.joint, joint_request.kind) == (["velocity_limit"], "/Arm/joint2", "joint")
    assert joint_request.target == "/Arm"
    with pytest.raises(KeyError):
        panel.on_finished() or panel.rerun_test("no_such_test")


def test_joint_rerun_replaces_only_that_row_and_rederives_the_status(panel):
    panel.validate()
    panel.on_result(_result())
    panel.on_finished()
    panel.rerun_joint("velocity_limit", "/Arm/joint2")
    rerun = _result(status=Status.PASS, rows=(("joint1", Status.FAIL), ("joint2", Status.PASS)))
    panel.on_result(rerun)  # the runner ran the whole test; only joint2's row may be taken
    panel.on_finished()
    merged = panel.result("velocity_limit")
    assert [(r.joint, r.status) for r in merged.joints] == [("joint1", Status.PASS), ("joint2", Status.PASS)]
    assert merged.status == Status.PASS
    assert len(panel.results) == 1


def test_merge_keeps_a_test_level_verdict():
    previous = _result(status=Status.ERROR)  # not derived from rows (e.g. the sim exploded)
    merged = merge_joint_result(previous, _result(rows=(("joint2", Status.PASS),)), "/Arm/joint2")
    assert merged.status == Status.ERROR
    unknown = merge_joint_result(previous, _result(rows=()), "/Arm/joint9")
    assert unknown.joints == previous.joints and "re-run of joint /Arm/joint9" in unknown.warnings[-1]


def test_narrow_to_joint_takes_the_joint_verdict():
    narrowed = narrow_to_joint(_result(), "joint2")
    assert [r.joint for r in narrowed.joints] == ["joint2"] and narrowed.status == Status.FAIL
    assert narrow_to_joint(_result(), "joint1").status == Status.PASS


# -- video ------------------------------------------------------------------------------------------
def test_video_player_plays_scrubs_and_stops_at_the_end(panel):
    panel.validate()
    panel.on_test_started("ground_drop")
    for step in range(0, 80, 16):
        panel.on_frame("ground_drop", np.full((2, 2, 4), step, np.uint8), step)
    video = panel.videos["ground_drop"]
    assert video.frame_count == 5 and video.steps == [0, 16, 32, 48, 64]
    video.play()
    assert not video.tick(0.01)  # less than one frame at 15 fps
    assert video.tick(0.1) and video.index == 1
    video.tick(10.0)
    assert video.index == 4 and not video.playing
    assert video.scrub(2) == 2 and video.current[0, 0, 0] == 32
    assert video.scrub(99) == 4 and video.scrub(-3) == 0
    video.index = 4
    video.play()
    assert video.index == 0 and video.playing  # play from the end restarts
    assert VideoModel().current is None and VideoModel().scrub(3) == 0


# -- exports ------------------------------------------------------------------------------------------
def test_exports_write_json_and_junit(panel, tmp_path):
    panel.validate()
    panel.on_result(_result())
    panel.on_finished()
    data = json.loads(panel.export_json(tmp_path / "r.json").read_text())
    assert data["assets"][0]["tests"][0]["status"] == "FAIL"
    junit = panel.export_junit(tmp_path / "r.xml")
    assert junit is not None
    assert ET.parse(junit).getroot().iter("testcase") is not None
    assert "JUnit report written" in panel.message


def test_default_export_dir_is_beside_the_asset_or_in_temp(tmp_path):
    import tempfile

    vm = ValidatorViewModel(runner=RecordingRunner())
    vm.set_stage("anon:0x1234:World0.usd", "/World")
    assert vm.default_export_dir().parent == type(tmp_path)(tempfile.gettempdir())
    vm.set_stage(str(make_box(tmp_path / "box.usda")), "/Box")
    assert vm.default_export_dir() == tmp_path.resolve()


def test_html_export_writes_the_report_and_opens_it(panel, tmp_path):
    panel.validate()
    panel.on_result(_result())
    panel.on_finished()
    opened = []
    index = panel.export_html(tmp_path / "report", opener=opened.append)
    assert index is not None and index.is_file() and "velocity_limit" in index.read_text()
    assert opened == [index.resolve().as_uri()]


# -- real runs through the headless engine --------------------------------------------------------------
def _only(vm, *names):
    for option in vm.tests:
        vm.set_test_enabled(option.name, option.name in names)


def test_headless_ground_drop_passes_on_a_box_and_is_not_applicable_when_anchored(tmp_path):
    vm = ValidatorViewModel(runner=HeadlessRunner("physx"))
    _only(vm, "ground_drop")
    vm.set_stage(str(make_box(tmp_path / "box.usda")), "/Box")
    vm.validate()
    assert vm.state == PanelState.DONE and vm.complete
    assert vm.result("ground_drop").status == Status.PASS and vm.result("ground_drop").engine == "physx"
    vm.set_stage(str(make_box(tmp_path / "anchored.usda", anchored=True)), "/Box")
    vm.validate()
    assert vm.result("ground_drop").status == Status.NOT_APPLICABLE
    assert [r.status for r in vm.rows()] == ["NOT_APPLICABLE"]


def test_headless_joint_rerun_gives_one_joint_result(tmp_path):
    vm = ValidatorViewModel(runner=HeadlessRunner("physx"))
    _only(vm, "velocity_limit")
    vm.set_stage(str(make_arm(tmp_path / "arm.usda")), "/Arm")
    vm.validate()
    first = vm.result("velocity_limit")
    assert {r.joint for r in first.joints} == {"joint1", "joint2"}
    request = vm.rerun_joint("velocity_limit", "/Arm/joint2")
    assert request.joint == "/Arm/joint2" and vm.state == PanelState.DONE
    after = vm.result("velocity_limit")
    assert {r.joint for r in after.joints} == {"joint1", "joint2"}
    rerun_row = next(r for r in after.joints if r.joint == "joint2")
    assert rerun_row.status in (Status.PASS, Status.FAIL) and rerun_row.measured
    assert after.status == first.status  # same physics, same verdict


def test_headless_unreadable_asset_is_a_precheck_failure_as_in_the_cli(tmp_path):
    vm = ValidatorViewModel(runner=HeadlessRunner("physx"))
    _only(vm, "ground_drop")
    vm.set_stage(str(tmp_path / "missing.usda"), "/X")
    vm.validate()
    result = vm.result("ground_drop")
    assert result.status == Status.PRECHECK_FAILURE and "unloadable asset" in result.reason and vm.errors


def test_headless_stop_reports_the_running_test_and_starts_no_other(tmp_path):
    """Stop during a headless run (from a sink call): the test in flight ends and is reported, the
    next one is not started, the run is incomplete."""
    vm = ValidatorViewModel(runner=HeadlessRunner("physx"))
    _only(vm, "ground_drop", "velocity_limit")
    vm.set_stage(str(make_box(tmp_path / "box.usda")), "/Box")
    started = []

    def stop_on_first_start(topic):
        if topic == "progress" and vm.current_test and not started:
            started.append(vm.current_test)
            vm.stop()

    vm.subscribe(stop_on_first_start)
    vm.validate()
    assert started == ["ground_drop"] and vm.state == PanelState.DONE and not vm.complete
    assert [r.name for r in vm.results] == ["ground_drop"] and vm.result("ground_drop").status == Status.PASS
    assert vm.report().not_run == ["velocity_limit"]


def test_a_test_that_runs_only_when_asked_for_is_offered_unticked(panel):
    """ik_target_reach SKIPs wherever we run (Lula) and ground_stability runs only when asked for (NVIDIA ships it
    disabled): listed, unticked; every other test ticked; ticked, the run takes it."""
    unticked = sorted(t.name for t in panel.tests if not t.enabled)
    assert unticked == ["ground_stability", "ik_target_reach"]
    assert all(t.enabled == panel.registry.get(t.name).runs_by_default for t in panel.tests)
    panel.set_test_enabled("ik_target_reach", True)
    assert "ik_target_reach" in panel.validate().tests
