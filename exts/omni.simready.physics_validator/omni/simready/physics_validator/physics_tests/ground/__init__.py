"""The ground family: an asset released above a floor (ground_drop, ground_stability) or a ramp (slope_drop). One
folder per test, each holding the test, its codes, config, hints, report view and fix rules; `parts` (which bodies a
release judges) is shared."""
