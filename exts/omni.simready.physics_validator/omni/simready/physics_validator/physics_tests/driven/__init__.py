"""The driven-joint family: velocity_limit, full_range_sweep, drive_gain_validation, effort_limit.

Each test is one module here; what they share sits beside them: joint selection and exclusions
(`selection`), the pinned-base scene, settling and series (`base`), sweep plans and hold checks
(`motion`), step-response analysis (`step_response`), load directions (`force_directions`) and
the bounding-box watch (`bbox_watch`).
"""
