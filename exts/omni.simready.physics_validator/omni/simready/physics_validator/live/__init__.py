"""The Kit frontend: validations on the stage open in Isaac Sim / Kit, beside the `ui` panel.

- `runner`: `KitLiveRunner`, the panel's runner in Kit (omni.physx step subscriptions, the timeline,
  Kit's update loop); it drives `run.asset_run.AssetRun` through `loop.LiveLoop`;
- `loop`: `LiveLoop`, the live runner's per-step and per-frame logic with no omni import (pytest
  drives it with a fake Kit);
- `open_stage`: the asset model of the open stage, unsaved edits included;
- `viewport`: video frames from the viewport while a test runs.

Only `runner`, `open_stage` and `viewport` touch omni.*, lazily: every module here imports outside Kit.
"""
