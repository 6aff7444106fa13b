"""Which physics engine Isaac Sim steps on Play, read from Kit. Kit only (omni.*, carb imported lazily).

Isaac Sim 6.x (Kit 110): the engine-neutral layer omni.physics keeps a registry of physics simulations and which are
active (`omni.physics.core.get_physics_interface()`: `get_simulation_ids()`, `get_simulation_name(id)`,
`is_simulation_active(id)`; omni.physics 110.4.4 `bindings/_physics.pyi`, checked by tests/kit/test_call_audit.py).
Isaac Sim 6.2's `SimulationManager.switch_physics_engine` leaves one engine active (isaacsim.core.simulation_manager
1.17.4), and isaacsim.physics.newton calls it at start-up when `/exts/isaacsim.physics.newton/auto_switch_on_startup`
is true, its default (isaacsim.physics.newton 1.1.1 `config/extension.toml`, `impl/extension.py`).

Isaac Sim 5.1 (Kit 107.3) has no omni.physics.core (no Isaac Sim 5.1 source imports it) and no Newton extension: the
import fails and PhysX is the engine. Where omni.physics.core is missing but the Newton extension is enabled with its
auto-switch setting on, that setting is taken as the answer.
"""

from __future__ import annotations

from ..ui.engine_line import ActiveEngine

NEWTON_EXTENSION = "isaacsim.physics.newton"
NEWTON_AUTO_SWITCH = "/exts/isaacsim.physics.newton/auto_switch_on_startup"


def read_active_engine() -> ActiveEngine:
    try:
        import omni.physics.core
    except ImportError:
        return _without_engine_layer()
    interface = omni.physics.core.get_physics_interface()
    active = [str(interface.get_simulation_name(i)) for i in interface.get_simulation_ids()
              if interface.is_simulation_active(i)]
    if not active:
        return ActiveEngine("", "omni.physics: no physics simulation is active")
    return ActiveEngine(active[0], f"omni.physics: active simulation {', '.join(active)}")


def _without_engine_layer() -> ActiveEngine:
    import carb.settings
    import omni.kit.app

    newton_on = omni.kit.app.get_app().get_extension_manager().is_extension_enabled(NEWTON_EXTENSION)
    if newton_on and carb.settings.get_settings().get(NEWTON_AUTO_SWITCH) is True:
        return ActiveEngine("Newton", f"{NEWTON_EXTENSION} enabled with {NEWTON_AUTO_SWITCH} = true")
    return ActiveEngine("PhysX", "no omni.physics engine layer in this Kit: PhysX only")
