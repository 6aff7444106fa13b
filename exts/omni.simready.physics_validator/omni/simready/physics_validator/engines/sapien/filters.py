"""Who collides with whom: UsdPhysics collision groups and filtered pairs as PhysX filter words.

Word 0 holds a shape's group bits (bit 0 = no group, bit 31 = the ground), word 1 the groups it may
touch (the ground always), word 2 one bit per filtered pair it belongs to (shapes sharing a word-2 bit
never touch). 30 group bits and 32 pair bits exist; what does not fit is warned about.
"""

from __future__ import annotations

GROUND_GROUP_BIT = 1 << 31
DEFAULT_GROUP_BIT = 1
ALL_BITS = 0xFFFFFFFF


def setup_collision_filters(asset, shapes: dict, warn) -> None:
    """Set the filter words of every shape; `shapes`: collider path -> [(sapien shape, kind)]."""
    group_bits: dict[str, int] = {}
    for collider in asset.colliders.values():
        for group in collider.collision_groups:
            if group not in group_bits and len(group_bits) < 30:
                group_bits[group] = 1 << (len(group_bits) + 1)
    if any(g not in group_bits for c in asset.colliders.values() for g in c.collision_groups):
        warn("more than 30 collision groups; the extra groups collide with everything")
    filtered_with: dict[int, int] = {}
    for a, b in asset.collision_group_filters:
        if a in group_bits and b in group_bits:
            filtered_with[group_bits[a]] = filtered_with.get(group_bits[a], 0) | group_bits[b]
            filtered_with[group_bits[b]] = filtered_with.get(group_bits[b], 0) | group_bits[a]
    ignore_bits: dict[str, int] = {}
    pairs = list(asset.filtered_pairs)
    if len(pairs) > 32:
        warn(f"{len(pairs)} filtered pairs; only the first 32 are honoured (PhysX filter word limit)")
    for k, (a, b) in enumerate(pairs[:32]):
        for path in collider_paths_under(asset, a) | collider_paths_under(asset, b):
            ignore_bits[path] = ignore_bits.get(path, 0) | (1 << k)
    for collider in asset.colliders.values():
        member = 0
        for group in collider.collision_groups:
            member |= group_bits.get(group, 0)
        member = member or DEFAULT_GROUP_BIT
        mask = ALL_BITS
        for bit, others in filtered_with.items():
            if member & bit:
                mask &= ~others
        groups = [member, mask | GROUND_GROUP_BIT, ignore_bits.get(collider.path, 0), 0]
        if not collider.collision_enabled:  # physics:collisionEnabled = false: in the scene, touching nothing
            groups = [0, 0, 0, 0]
        for shape, _ in shapes.get(collider.path, []):
            shape.set_collision_groups(groups)


def collider_paths_under(asset, path: str) -> set[str]:
    """Colliders a filtered-pair target stands for, as UsdPhysics defines the targets: a collider is itself; a rigid
    body is the colliders it owns (not those of bodies nested below its prim: pb_r2d2's (base_link, left_base) pair
    once disabled every self-collision of the robot); an articulation is the colliders of its bodies; any other prim
    stands for the colliders below it."""
    if path in asset.colliders:
        return {path}
    if path in asset.bodies:
        return {c.path for c in asset.colliders.values() if c.body == path}
    for art in asset.articulations:
        if art.root == path:
            return {c.path for c in asset.colliders.values() if c.body in art.bodies}
    prefix = path.rstrip("/") + "/"
    return {c.path for c in asset.colliders.values() if c.path.startswith(prefix) or (c.body or "").startswith(prefix)}
