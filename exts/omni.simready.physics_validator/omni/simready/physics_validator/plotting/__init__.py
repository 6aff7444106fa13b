"""Figures for people, shared by each test's own plot (physics_tests/<family>/<test>/plot.py) and the reports:
matplotlib on the Agg backend, series as arrays, panel grids, verdict colours and SI values drawn in the units
people read (degrees, mm). Imports only core, so a test's plot and the report that writes it share one look."""
