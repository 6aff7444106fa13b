"""Draw the extension's icon and preview images (data/icon.png, data/preview.png) with Pillow.

Run: python tools/kit_ext_images.py  (rewrites both files)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

DATA = Path(__file__).resolve().parents[1] / "exts" / "omni.simready.physics_validator" / "data"
GREEN, BLUE, GREY, DARK = (118, 185, 0), (51, 89, 191), (200, 200, 200), (32, 34, 38)


def _box_on_floor(draw: ImageDraw.ImageDraw, x: int, floor: int, size: int) -> None:
    draw.rectangle([x, floor - size, x + size, floor], fill=GREEN, outline=(20, 20, 20), width=max(1, size // 20))


def icon(size: int = 256) -> Image.Image:
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([4, 4, size - 4, size - 4], radius=size // 8, fill=DARK)
    floor = int(size * 0.78)
    d.rectangle([size * 0.12, floor, size * 0.88, floor + size * 0.06], fill=BLUE)
    _box_on_floor(d, int(size * 0.22), floor, int(size * 0.30))
    for i, y in enumerate((0.18, 0.28, 0.38)):  # motion lines: the drop
        d.line([size * (0.30 + 0.06 * i), size * y, size * (0.30 + 0.06 * i), size * (y + 0.07)], fill=GREY, width=size // 40)
    # check mark: the verdict
    d.line([(size * 0.58, size * 0.50), (size * 0.68, size * 0.62), (size * 0.86, size * 0.34)], fill=GREEN, width=size // 16)
    return img


def preview(width: int = 1280, height: int = 720) -> Image.Image:
    img = Image.new("RGB", (width, height), DARK)
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=28)
    small = ImageFont.load_default(size=20)
    d.text((40, 30), "SimReady Physics Validator", fill=(240, 240, 240), font=font)
    rows = [
        ("ground_drop", "PASS"),
        ("velocity_limit", "PASS"),
        ("full_range_sweep", "FAIL"),
        ("   joint2", "FAIL  reached 41.8 of 60.0 deg"),
        ("drive_gain_validation", "WARN"),
        ("effort_limit", "PASS"),
    ]
    colours = {"PASS": GREEN, "FAIL": (224, 61, 61), "WARN": (240, 179, 43)}
    for i, (name, verdict) in enumerate(rows):
        y = 100 + i * 44
        d.rectangle([40, y, 660, y + 38], fill=(44, 47, 53))
        d.text((56, y + 8), name, fill=(230, 230, 230), font=small)
        d.text((380, y + 8), verdict, fill=colours[verdict.split()[0]], font=small)
    d.rectangle([700, 100, 1240, 460], fill=(70, 80, 96))  # the video pane
    d.rectangle([700, 400, 1240, 460], fill=BLUE)
    _box_on_floor(d, 900, 400, 110)
    d.rectangle([700, 480, 1240, 492], fill=(90, 90, 90))
    d.rectangle([700, 480, 940, 492], fill=GREEN)
    for j, label in enumerate(("Validate", "Stop", "Export JSON", "Export JUnit", "Open HTML report")):
        x = 40 + j * 200
        d.rounded_rectangle([x, 600, x + 180, 650], radius=8, fill=(60, 64, 72))
        d.text((x + 16, 613), label, fill=(235, 235, 235), font=small)
    return img


if __name__ == "__main__":
    DATA.mkdir(parents=True, exist_ok=True)
    icon().save(DATA / "icon.png")
    preview().save(DATA / "preview.png")
    print(f"wrote {DATA / 'icon.png'} and {DATA / 'preview.png'}")
