"""Kit test suites (omni.kit.test discovers `<module>.tests`). Outside Kit only the pure-pxr
`stage_builders` module is usable; the suites themselves need omni.kit.test."""

try:  # pragma: no cover - only inside Kit
    import omni.kit.test  # noqa: F401

    _IN_KIT = True
except ImportError:
    _IN_KIT = False

if _IN_KIT:  # pragma: no cover
    from .test_extension import *  # noqa: F401,F403
    from .test_kit_engine import *  # noqa: F401,F403
    from .test_panel import *  # noqa: F401,F403
