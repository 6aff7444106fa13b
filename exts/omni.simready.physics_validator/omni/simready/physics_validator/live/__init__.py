"""The Kit frontend: validations on the stage open in Isaac Sim / Kit, beside the `ui` panel.

- `runner`: `KitLiveRunner`, the panel's runner in Kit: only the Kit calls (timeline, omni.physx step
  subscriptions and simulation events, stage events, Kit's update loop); it drives
  `run.asset_run.AssetRun` through `loop.LiveLoop`;
- `loop`: `LiveLoop`, the live runner as a per-frame state machine with no omni import (pytest drives
  it through `KitLiveRunner` over a Kit test double that defers timeline changes as Kit does);
- `open_stage`: the asset model of the open stage, unsaved edits included;
- `viewport`: video frames from the viewport while a test runs;
- `active_engine`: the physics engine Isaac Sim steps on Play (omni.physics), which the runner checks first.

Only `runner`, `open_stage`, `viewport` and `active_engine` touch omni.*, lazily: every module here imports outside
Kit.
"""
