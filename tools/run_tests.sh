#!/usr/bin/env bash
# The one test command (README, .ci/run): install the package with its test extras, the test
# browser for the HTML-report tests and the kit tier's Kit venv, check lint and types, then run the whole pytest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# [newton]: the Newton engine tests run too; Warp kernels compile once into ~/.cache/simready-physics/warp (kept between runs on this machine)
# [sapien]: the sapien engine (PhysX 5.3 via SAPIEN) is tested beside the default physx engine (ovphysx, a base dependency).
# ovphysx pins packaging<24: a fresh environment resolves ray to 2.52.1 with packaging 23.2 (ray 2.60 wants >=24.2).
python -m pip install --quiet --disable-pip-version-check -e ".[test,newton,ray,sapien]"
# Lint and types before any test (docs/architecture.md "Checks"; rules in pyproject.toml): any finding fails the run.
if ! python -m ruff check --quiet .; then
    echo "lint: ruff found the problems above (python -m ruff check .)" >&2
    exit 1
fi
echo "lint: ruff clean"
if ! python -m mypy; then
    echo "types: mypy found the errors above (python -m mypy)" >&2
    exit 1
fi
echo "types: mypy clean"
if [ -f tools/install_test_browser.sh ]; then
    bash tools/install_test_browser.sh
fi
# The kit tier (tests/kit): a real Kit 110.4 kernel and the Isaac Sim 6.2 wheels in their own Python 3.12 venv, cached
# in ~/.cache/simready-physics (about 80 s the first time, then a check). Here it is required: a missing venv fails
# its tests instead of skipping them. SIMREADY_KIT_TIER=skip leaves it out (its tests then skip).
export SIMREADY_KIT_TIER="${SIMREADY_KIT_TIER:-required}"
if [ "$SIMREADY_KIT_TIER" != "skip" ] && ! bash tools/install_kit_tier.sh; then
    echo "kit tier: the install failed; tests/kit will fail (see the message above)" >&2
fi
# NVIDIA's URDF/MJCF converters for `simready-physics import` (tests/robot_import): their own venv in
# ~/.cache/simready-physics (76 s the first time at load 15-19 with a warm pip cache, 268 MB; then a check). Required
# here like the kit tier: a missing venv fails those tests instead of skipping them. SIMREADY_CONVERTERS=skip leaves it out.
export SIMREADY_CONVERTERS="${SIMREADY_CONVERTERS:-required}"
if [ "$SIMREADY_CONVERTERS" != "skip" ] && ! python -m omni.simready.physics_validator.cli import --setup; then
    echo "converters: the install failed; tests/robot_import will fail (see the message above)" >&2
fi
# Two pytest workers (the CI machine has 2 cores; most physics runs are single-threaded), a test file per worker so
# module fixtures are built once: 17-23 min here, against about 25 min in one process. SIMREADY_TEST_WORKERS=0 runs in one process.
python -m pytest -q -n "${SIMREADY_TEST_WORKERS:-2}" --dist loadfile "$@"
