"""`python -m omni.simready.physics_validator.cli`: the same as `simready-physics`."""

import sys

from . import main

sys.exit(main())
