"""Report writers: JSON (machines), JUnit XML (CI), console summary (people at a terminal)."""
