"""The dependency walk never opens what is not a regular file, follows composition arcs only, and keeps names whole."""

from __future__ import annotations

import os
import threading

from pxr import Sdf

from omni.simready.physics_validator.core.cache import asset_content_hash, file_digest
from omni.simready.physics_validator.core.usd.dependencies import file_kind, scan
from tests.fixtures.usd_assets import box_asset


def _root_with_sublayer(folder, sub_name: str):
    box_asset(folder / sub_name)
    root = Sdf.Layer.CreateNew(str(folder / "root.usda"))
    root.subLayerPaths.append(f"./{sub_name}")
    root.Save()
    return folder / "root.usda"


def _finishes(fn, seconds: float = 20.0):
    """fn() in a thread; its value, or AssertionError when it is still running after `seconds` (a blocked read)."""
    out: list = []

    def call() -> None:
        try:
            out.append((True, fn()))
        except Exception as exc:  # noqa: BLE001 - handed back to the caller
            out.append((False, exc))

    thread = threading.Thread(target=call, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{fn} blocked"
    ok, value = out[0]
    if not ok:
        raise value
    return value


def test_a_fifo_sublayer_is_recorded_as_a_fifo_never_opened(tmp_path):
    os.mkfifo(tmp_path / "pipe.usda")
    root = _root_with_sublayer(tmp_path, "body.usda")
    layer = Sdf.Layer.FindOrOpen(str(root))
    layer.subLayerPaths.append("./pipe.usda")
    layer.Save()
    deps = _finishes(lambda: scan(root))
    assert [(b.path.name, b.kind) for b in deps.blocked] == [("pipe.usda", "a FIFO")]
    assert "sublayer ./pipe.usda of root.usda" in deps.blocked[0].reason()
    assert _finishes(lambda: asset_content_hash(root)) is not None


def test_a_texture_naming_dev_zero_is_neither_read_nor_blocking(tmp_path):
    path = box_asset(tmp_path / "tex.usda")
    layer = Sdf.Layer.FindOrOpen(str(path))
    prim = layer.GetPrimAtPath(layer.rootPrims[0].path)
    Sdf.AttributeSpec(prim, "texture", Sdf.ValueTypeNames.Asset).default = Sdf.AssetPath("/dev/zero")
    layer.Save()
    deps = _finishes(lambda: scan(path))
    assert list(deps.special.values()) == ["a character device"]
    assert not deps.blocked  # a texture slot is not composed
    assert file_kind("/dev/zero") == "a character device"


def test_file_digest_refuses_a_fifo_and_a_device_at_once(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    for path in (tmp_path / "pipe", "/dev/zero"):
        try:
            _finishes(lambda path=path: file_digest(path), 10.0)
        except OSError as exc:
            assert "not a regular file" in str(exc)
        else:
            raise AssertionError(f"{path} was hashed")


def test_a_bracket_in_a_layer_name_is_a_name_not_a_package(tmp_path):
    root = _root_with_sublayer(tmp_path, "physics[v2].usda")
    deps = scan(root)
    assert (tmp_path / "physics[v2].usda").absolute() in deps.files
    before = asset_content_hash(root)
    sub = Sdf.Layer.FindOrOpen(str(tmp_path / "physics[v2].usda"))
    sub.documentation = "edited"
    sub.Save()
    assert asset_content_hash(root) != before


def test_the_parent_does_not_parse_an_oversized_layer_and_gives_no_key(tmp_path):
    root = _root_with_sublayer(tmp_path, "body.usda")
    deps = scan(root, max_parse_bytes=1)
    assert deps.unfollowed == [root.absolute()]
    assert (tmp_path / "body.usda").absolute() not in deps.files
