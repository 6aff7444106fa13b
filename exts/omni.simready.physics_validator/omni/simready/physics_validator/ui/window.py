"""The omni.ui panel: widgets bound to `ValidatorViewModel`, no logic of their own.

Every button calls a view-model method; every redraw follows a view-model change notification.
Kit-only. omni.ui ships only as a PyPI stub: written against omni.ui's documented API (notes in
../shared/notes/kit-api.md, omni.ui patterns); the update observer (carb.eventdispatcher, omni.kit.app) is checked
against the real Isaac Sim 6.2 wheels (tests/kit/test_call_audit.py). In the kit test tier the panel is built,
clicked and read on a real Kit 110.4 kernel over a recording omni.ui double (tests/fixtures/fake_kit/exts/omni.ui).
A proposed fix goes on the open stage of omni.usd's context (`get_context().get_stage()`, omni.usd Python docs).
"""

from __future__ import annotations

from typing import Callable

import omni.ui as ui

from .engine_line import ActiveEngine, engine_line, judged_by
from .rows import VerdictRow
from .view_model import PanelState, ValidatorViewModel

STATUS_COLOURS = {
    "PASS": 0xFF4CAF50,
    "FAIL": 0xFF3D3DE0,
    "WARN": 0xFF2BB3F0,
    "ERROR": 0xFF1F1FB0,
    "PRECHECK_FAILURE": 0xFF3D3DE0,
    "SKIP": 0xFF9E9E9E,
    "NOT_APPLICABLE": 0xFF9E9E9E,
    "EXCLUDED": 0xFF7A7A7A,
}
COLUMNS = ["Test / joint", "Verdict", "Measured", "Limit", "Why"]


class _RowItem(ui.AbstractItem):
    def __init__(self, row: VerdictRow):
        super().__init__()
        self.row = row
        self.children = [_RowItem(c) for c in row.children]
        texts = [row.name, row.status, row.measured, row.limits, row.detail]
        self.models = [ui.SimpleStringModel(t) for t in texts]


class VerdictModel(ui.AbstractItemModel):
    """TreeView model over `view_model.rows()`: tests at the top, joints beneath."""

    def __init__(self) -> None:
        super().__init__()
        self._items: list[_RowItem] = []

    def set_rows(self, rows: list[VerdictRow]) -> None:
        self._items = [_RowItem(r) for r in rows]
        self._item_changed(None)

    def get_item_children(self, item):
        return self._items if item is None else item.children

    def get_item_value_model_count(self, item):
        return len(COLUMNS)

    def get_item_value_model(self, item, column_id):
        return item.models[column_id]


class VerdictDelegate(ui.AbstractItemDelegate):
    def build_branch(self, model, item, column_id, level, expanded):
        if column_id == 0 and item is not None and item.children:
            ui.Label("-" if expanded else "+", width=14)

    def build_header(self, column_id):
        ui.Label(COLUMNS[column_id], height=20)

    def build_widget(self, model, item, column_id, level, expanded):
        text = model.get_item_value_model(item, column_id).as_string
        style = {"color": STATUS_COLOURS.get(text, 0xFFDDDDDD)} if column_id == 1 else {}
        ui.Label(text, style=style, elided_text=True, tooltip=text)


class ValidatorWindow(ui.Window):
    def __init__(self, title: str, view_model: ValidatorViewModel,
                 active_engine: Callable[[], ActiveEngine | None] | None = None):
        """`active_engine`: reads the engine Isaac Sim steps on Play (the Kit runner's), for the engine line."""
        super().__init__(title, width=720, height=820, visible=False, dockPreference=ui.DockPreference.RIGHT_BOTTOM)
        self.vm = view_model
        self._active_engine = active_engine or (lambda: None)
        self._selected: VerdictRow | None = None
        self._video_test: str | None = None
        self._provider = ui.ByteImageProvider()
        self._verdicts = VerdictModel()
        self._threshold_frames: dict[str, ui.Frame] = {}
        self._update_observer = None
        self._unsubscribe: Callable[[], None] | None = self.vm.subscribe(self._on_change)
        if self.vm.fix_stage is None:  # a fix goes on the open stage's session layer
            self.vm.fix_stage = _open_stage
        self.frame.set_build_fn(self._build)
        self._watch_updates()

    def destroy(self) -> None:
        self._update_observer = None
        if self._unsubscribe:
            self._unsubscribe()
            self._unsubscribe = None
        super().destroy()

    # -- layout -------------------------------------------------------------------------------------
    def _build(self) -> None:
        with ui.ScrollingFrame():
            with ui.VStack(spacing=6, height=0):
                self._target_label = ui.Label(self.vm.target_text, identifier="physics_validator_target")
                self._engine_label = ui.Label(self._engine_text(), word_wrap=True, identifier="physics_validator_engine")
                with ui.CollapsableFrame("Tests and thresholds", collapsed=False):
                    with ui.VStack(spacing=2):
                        for option in self.vm.tests:
                            self._build_test_option(option)
                with ui.HStack(height=28, spacing=6):
                    self._validate_btn = ui.Button("Validate", clicked_fn=self.vm.validate,
                                                   identifier="physics_validator_validate")
                    self._stop_btn = ui.Button("Stop", clicked_fn=self.vm.stop, identifier="physics_validator_stop")
                self._progress_model = ui.SimpleFloatModel(self.vm.progress)
                ui.ProgressBar(self._progress_model, height=18)
                self._progress_label = ui.Label(self.vm.progress_text, identifier="physics_validator_progress")
                self._message_label = ui.Label(self.vm.message, word_wrap=True, style={"color": 0xFF2BB3F0})
                tree = ui.TreeView(
                    self._verdicts,
                    delegate=VerdictDelegate(),
                    root_visible=False,
                    header_visible=True,
                    columns_resizable=True,
                    column_widths=[ui.Fraction(1), 110, ui.Fraction(1), ui.Fraction(0.8), ui.Fraction(1.2)],
                    height=220,
                    identifier="physics_validator_verdicts",
                )
                tree.set_selection_changed_fn(self._on_selection)
                self._hints_label = ui.Label("", word_wrap=True, identifier="physics_validator_hints")
                with ui.HStack(height=24, spacing=6):
                    self._rerun_test_btn = ui.Button("Re-run this test", clicked_fn=self._rerun_test)
                    self._rerun_joint_btn = ui.Button("Re-run this joint", clicked_fn=self._rerun_joint)
                    self._propose_fix_btn = ui.Button("Propose fix", clicked_fn=self._propose_fix,
                                                      identifier="physics_validator_propose_fix",
                                                      tooltip="Tune this joint's drive, prove it by a re-run, apply it to the "
                                                              "session only")
                    self._remove_fix_btn = ui.Button("Remove fix", clicked_fn=self.vm.remove_fix,
                                                     identifier="physics_validator_remove_fix")
                self._readback_frame = ui.CollapsableFrame(f"What the runtime read: {self.vm.readback_text()}", collapsed=True,
                                                           identifier="physics_validator_readback")
                self._readback_frame.set_build_fn(self._build_readback)
                self._plausibility_frame = ui.CollapsableFrame(f"Plausibility: {self.vm.plausibility_text()}", collapsed=True,
                                                               identifier="physics_validator_plausibility")
                self._plausibility_frame.set_build_fn(self._build_plausibility)
                with ui.CollapsableFrame("Video", collapsed=False):
                    with ui.VStack(spacing=4, height=0):
                        self._video_label = ui.Label("select a test to see its recording")
                        ui.ImageWithProvider(self._provider, width=320, height=180)
                        with ui.HStack(height=22, spacing=4):
                            ui.Button("Play", width=60, clicked_fn=self._play)
                            ui.Button("Pause", width=60, clicked_fn=self._pause)
                            self._scrub = ui.IntSlider(min=0, max=1)
                            self._scrub.model.add_value_changed_fn(self._on_scrub)
                with ui.HStack(height=24, spacing=6):
                    ui.Button("Export JSON",
                              clicked_fn=lambda: self.vm.export_json(self.vm.default_export_dir() / "physics_report.json"))
                    ui.Button("Export JUnit",
                              clicked_fn=lambda: self.vm.export_junit(self.vm.default_export_dir() / "physics_report.xml"))
                    ui.Button("Open HTML report",
                              clicked_fn=lambda: self.vm.export_html(self.vm.default_export_dir() / "physics_report"))
        self._refresh_buttons()
        self._verdicts.set_rows(self.vm.rows())

    def _build_test_option(self, option) -> None:
        with ui.HStack(height=22, spacing=4):
            box = ui.CheckBox(width=20, identifier=f"physics_validator_test_{option.name}")
            box.model.set_value(option.enabled)
            box.model.add_value_changed_fn(lambda m, n=option.name: self.vm.set_test_enabled(n, m.get_value_as_bool()))
            ui.Label(option.name, width=180, tooltip=option.summary)
        frame = ui.CollapsableFrame(f"{option.name} thresholds", collapsed=True)
        frame.set_build_fn(lambda n=option.name: self._build_thresholds(n))
        self._threshold_frames[option.name] = frame

    def _build_thresholds(self, test: str) -> None:
        with ui.VStack(spacing=2, height=0):
            for fld in self.vm.thresholds(test):
                with ui.HStack(height=20, spacing=4):
                    ui.Label(fld.key, width=220, tooltip=fld.description)
                    field = ui.StringField(identifier=f"physics_validator_{test}_{fld.key}")
                    field.model.set_value(fld.text)
                    field.model.add_end_edit_fn(lambda m, t=test,
                                                k=fld.key: self.vm.edit_threshold(t, k, m.get_value_as_string()))
            ui.Button("Reset to defaults", height=20, clicked_fn=lambda: self.vm.reset_thresholds(test))

    def _build_readback(self) -> None:
        """The readback table (ui/readback_panel.py), flagged rows first: one row of labels per value."""
        view = self.vm.readback_view() or {"joints": [], "bodies": []}
        with ui.VStack(spacing=1, height=0):
            for kind in ("joints", "bodies"):
                for r in view[kind]:
                    with ui.HStack(height=18, spacing=4):
                        for text, width in ((r["name"], 140), (r["property"], 110), (r["authored"], 100), (r["runtime"], 100),
                                            (r["flag"], 130)):
                            ui.Label(text, width=width, tooltip=r["attribute"] if width == 100 else r["words"])
                        ui.Label(" · ".join(x for x in (", ".join(r["explains"]), r["fix"] or r["note"]) if x), word_wrap=True)

    def _build_plausibility(self) -> None:
        """The plausibility findings (ui/plausibility_panel.py), errors first: what, on which part, which verdicts it
        explains and the fix."""
        view = self.vm.plausibility_view() or {"rows": []}
        with ui.VStack(spacing=1, height=0):
            for r in view["rows"]:
                with ui.HStack(height=18, spacing=4):
                    rule = f"{r['code']} ({r['requirement']})" if r["requirement"] else r["code"]
                    ui.Label(rule, width=200, tooltip=r["severity"])
                    ui.Label(r["subject"], width=160, tooltip=r["path"])
                    ui.Label(" · ".join(x for x in (r["message"], ", ".join(r["explains"]), r["fix"]) if x), word_wrap=True)

    # -- binding ------------------------------------------------------------------------------------
    def _on_change(self, topic: str) -> None:
        if not hasattr(self, "_progress_label"):
            return  # not built yet
        if topic == "target":
            self._target_label.text = self.vm.target_text
        elif topic in ("progress", "state"):
            if topic == "state":
                self._refresh_engine_line()
            self._progress_model.set_value(self.vm.progress)
            self._progress_label.text = self.vm.progress_text
            self._refresh_buttons()
        elif topic == "rows":
            self._verdicts.set_rows(self.vm.rows())
        elif topic == "fix":
            self._refresh_buttons()
        elif topic == "message":
            self._message_label.text = self.vm.message
        elif topic == "thresholds":
            for frame in self._threshold_frames.values():
                frame.rebuild()
        elif topic == "readback":
            self._readback_frame.title = f"What the runtime read: {self.vm.readback_text()}"
            self._readback_frame.rebuild()
        elif topic == "plausibility":
            self._plausibility_frame.title = f"Plausibility: {self.vm.plausibility_text()}"
            self._plausibility_frame.rebuild()
        elif topic == "video" and self._video_test is None:
            self._show_video(self.vm.current_test)

    def _engine_text(self) -> str:
        """Which engine judged the verdicts on show and which one Isaac Sim runs (read again every frame)."""
        return engine_line(self._active_engine(), judged_by(r.engine for r in self.vm.results), self.vm.asset_path)

    def _refresh_engine_line(self) -> None:
        if hasattr(self, "_engine_label"):  # built
            text = self._engine_text()
            if text != self._engine_label.text:
                self._engine_label.text = text

    def _refresh_buttons(self) -> None:
        self._validate_btn.enabled = self.vm.can_validate
        self._stop_btn.enabled = self.vm.can_stop
        row = self._selected
        idle = self.vm.state in (PanelState.IDLE, PanelState.DONE)
        self._rerun_test_btn.enabled = idle and row is not None
        self._rerun_joint_btn.enabled = idle and row is not None and row.can_rerun_joint
        self._propose_fix_btn.enabled = self.vm.can_propose_fix(row)
        self._remove_fix_btn.enabled = self.vm.fix.applied is not None

    def _on_selection(self, items) -> None:
        self._selected = items[0].row if items else None
        row = self._selected
        lines = [f"- {h}" for h in row.fix_hints] + [f"- plausibility: {f}" for f in row.findings] if row else []
        self._hints_label.text = "\n".join(lines)
        self._refresh_buttons()
        if row is not None:
            self._video_test = row.test
            self._show_video(row.test)

    def _rerun_test(self) -> None:
        if self._selected is not None:
            self.vm.rerun_test(self._selected.test)

    def _rerun_joint(self) -> None:
        row = self._selected
        if row is not None and row.can_rerun_joint and row.joint:  # can_rerun_joint: a joint row with its joint
            self.vm.rerun_joint(row.test, row.joint)

    def _propose_fix(self) -> None:
        row = self._selected
        if self.vm.can_propose_fix(row) and row is not None and row.joint:  # can_propose_fix: a joint row
            self.vm.propose_fix(row.test, row.joint)

    # -- video --------------------------------------------------------------------------------------
    def _video(self):
        test = self._video_test or self.vm.current_test
        return self.vm.videos.get(test) if test else None

    def _show_video(self, test: str | None) -> None:
        video = self.vm.videos.get(test) if test else None
        if video is None or video.current is None:
            self._video_label.text = f"{test}: no recording" if test else "no recording"
            return
        self._video_label.text = f"{test}: frame {video.index + 1}/{video.frame_count}"
        self._scrub.max = max(1, video.frame_count - 1)
        frame = video.current
        self._provider.set_data_array(frame, [frame.shape[1], frame.shape[0]])

    def _play(self) -> None:
        video = self._video()
        if video is not None:
            video.play()

    def _pause(self) -> None:
        video = self._video()
        if video is not None:
            video.pause()

    def _on_scrub(self, model) -> None:
        video = self._video()
        if video is not None and not video.playing:
            video.scrub(model.get_value_as_int())
            self._show_video(self._video_test or self.vm.current_test)

    def _watch_updates(self) -> None:
        import carb.eventdispatcher
        import omni.kit.app

        self._update_observer = carb.eventdispatcher.get_eventdispatcher().observe_event(
            event_name=omni.kit.app.GLOBAL_EVENT_UPDATE, on_event=self._on_update, observer_name="physics_validator.video"
        )

    def _on_update(self, event) -> None:
        self._refresh_engine_line()  # an engine switched (isaacsim.physics.newton, SimulationManager) shows at once
        video = self._video()
        dt = 1.0 / 60.0
        try:
            dt = float(event.payload["dt"])
        except Exception:  # noqa: BLE001 - payload layout differs across Kit versions
            pass
        if video is not None and video.tick(dt):
            self._show_video(self._video_test or self.vm.current_test)


def _open_stage():
    """The stage open in Kit (its session layer takes a proposed fix)."""
    import omni.usd

    return omni.usd.get_context().get_stage()
