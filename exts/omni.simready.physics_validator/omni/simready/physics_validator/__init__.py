"""omni.simready.physics_validator: physics-conformance tests for simulation-ready USD assets.

Importable without Kit: the headless core, engines and reports live here. The Kit extension class
(`extension.PhysicsValidatorExtension`) is exported only when `omni.ext` is importable, so Kit's
extension manager finds it while plain Python never touches omni.*. Inside Kit the import is not
guarded: a missing dependency (pydantic, a Kit extension) must fail the enable with its ImportError in
the extension manager's log, not enable an extension without its IExt class (Kit instantiates the
omni.ext.IExt subclasses of the module named in extension.toml: kit-app-template
templates/extensions/python_ui/template/{{python_module_path}}/extension.py, whose package __init__ is a
bare `from .extension import *`).
"""

from ._version import __version__

__all__ = ["__version__", "validate"]


def validate(paths, tests=None, config=None, engine="physx", out_dir=None, progress=None, debug=False, **batch_options):
    """Validate USD files or folders and return a RunReport (Python API; the CLI's `validate`).

    `batch_options`: jobs, executor ("local" or "ray"), ray_address, changed_only. See docs/batch.md.
    """
    from .run import validate_batch

    return validate_batch(paths, tests, config, engine, out_dir, progress=progress, debug=debug, **batch_options)


try:  # pragma: no cover - only true inside Kit
    import omni.ext  # noqa: F401

    _IN_KIT = True
except ImportError:
    _IN_KIT = False

if _IN_KIT:  # pragma: no cover
    from .extension import *  # noqa: F401,F403
