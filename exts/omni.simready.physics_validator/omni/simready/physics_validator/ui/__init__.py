"""The panel: `view_model` holds all state and behaviour, `rows` the verdict table, `video` the player,
`headless_runner` runs requests on a headless engine (all omni-free, covered by pytest); `window` only
builds omni.ui widgets bound to the view-model (Kit only, imported lazily by extension.py). In Kit the
runner is `live.runner.KitLiveRunner`."""
