"""Physics-runtime variant sets: which variant an engine's runtime composes, chosen on a stage's session layer.

Two conventions are in use, and both are read:

- SimReady Foundation (runtime_variants RV.001-RV.009): the asset root carries one variant set per runtime, named
  exactly `PhysX`, `Newton` or `MuJoCo`, each with `Disabled` (the default) and `Enabled`. The engine's runtime gets
  `Enabled` and every other runtime set `Disabled`, the composition RV.011 validates.
- Kit's `omni.physics.isaacsimready` variant switcher: a variant set named `Physics` whose variant names carry the
  simulator's name (`physx`, `newton`, `mujoco`); the first variant containing it is selected, as Kit does (Kit
  matches the registered name as a substring; here the match ignores case).

The selection is authored on the session layer of the stage being read (in memory, never saved), the way Kit's
switcher authors it on the live stage's session layer; engines that simulate the USD author the same selection in
their own layer (engines.validation_layer). A stage with no such variant set is read as authored.
"""

from __future__ import annotations

from dataclasses import dataclass

RUNTIME_SETS = ("PhysX", "Newton", "MuJoCo")  # SimReady Foundation: one set per runtime, Disabled / Enabled
KIT_SET = "Physics"  # omni.physics.isaacsimready's tracked variant set
ENABLED, DISABLED = "Enabled", "Disabled"
MAX_PASSES = 4  # a selection can compose prims that carry variant sets of their own


@dataclass(frozen=True)
class VariantChoice:
    """One variant selection made for the engine's runtime."""

    prim: str
    variant_set: str
    variant: str
    previous: str  # the selection as authored ('' when none)

    def __str__(self) -> str:
        was = f" (authored: {self.previous})" if self.previous and self.previous != self.variant else ""
        return f"{self.prim} {{{self.variant_set} = {self.variant}}}{was}"


def choose_variants(stage, runtime: str) -> list[VariantChoice]:
    """The selections that compose `runtime` ("PhysX", "Newton" or "MuJoCo") on `stage`, without changing it."""
    choices = []
    for prim in stage.Traverse():
        if not prim.HasVariantSets():
            continue
        sets = prim.GetVariantSets()
        for name in sets.GetNames():
            variant = _variant_for(name, list(sets.GetVariantSet(name).GetVariantNames()), runtime)
            if variant is None:
                continue
            previous = sets.GetVariantSet(name).GetVariantSelection()
            choices.append(VariantChoice(str(prim.GetPath()), name, variant, previous))
    return choices


def _variant_for(set_name: str, variants: list[str], runtime: str) -> str | None:
    if set_name in RUNTIME_SETS:
        wanted = ENABLED if set_name == runtime else DISABLED
        return wanted if wanted in variants else None
    if set_name == KIT_SET:
        return next((v for v in variants if runtime.lower() in v.lower()), None)
    return None


def select_runtime_variants(stage, runtime: str | None) -> list[VariantChoice]:
    """Author, on `stage`'s session layer, the variant selections that compose `runtime`; returns them (every
    runtime variant set found, including those whose authored selection already was the one needed)."""
    if not runtime:
        return []
    from pxr import Usd

    made: dict[tuple[str, str], VariantChoice] = {}
    with Usd.EditContext(stage, stage.GetSessionLayer()):
        for _ in range(MAX_PASSES):
            new = [c for c in choose_variants(stage, runtime) if (c.prim, c.variant_set) not in made]
            if not new:
                break
            for choice in new:
                made[(choice.prim, choice.variant_set)] = choice
                prim = stage.GetPrimAtPath(choice.prim)
                if prim.GetVariantSets().GetVariantSet(choice.variant_set).GetVariantSelection() != choice.variant:
                    prim.GetVariantSets().GetVariantSet(choice.variant_set).SetVariantSelection(choice.variant)
    return list(made.values())


def author_selections(layer, choices) -> None:
    """Write `choices` as variant-selection opinions into `layer` (an engine's own layer over the asset)."""
    from pxr import Sdf

    for choice in choices:
        spec = Sdf.CreatePrimInLayer(layer, choice.prim)
        spec.variantSelections[choice.variant_set] = choice.variant
