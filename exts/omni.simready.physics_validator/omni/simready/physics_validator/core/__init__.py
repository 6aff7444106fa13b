"""Engine-agnostic core: asset model, statuses and results, config, test plugins, runner.

Imports pxr, numpy and pydantic only; never an engine module or omni.*.
"""
