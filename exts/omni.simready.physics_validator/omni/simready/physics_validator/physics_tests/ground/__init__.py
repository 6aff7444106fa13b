"""The ground family: an asset dropped onto a floor (ground_drop). One folder per test, each holding the test,
its codes, config, hints, report view and fix rules."""
