"""The Kit panel: `view_model` holds all state and behaviour (no omni import, covered by pytest);
`window` only builds omni.ui widgets bound to it (Kit only, imported lazily by extension.py)."""
