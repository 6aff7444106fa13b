"""Text drawn over the rendered frames (Pillow): readable on any background, never under the player's controls.

- the **caption** (top left): test and asset, simulated time, what is happening (ctx.label) and, when the
  test loads the asset, the load ("load 10 N" in the arrow's colour), on a dark translucent panel so it
  reads on the light floor as on the dark walls;
- the **verdict strip** (the last frames and the poster, `strip_card`): the frame of the asset's last pose shrunk
  into the top of the picture, and below it, never over it, a strip with the verdict on its colour, the test and
  time, and the reason wrapped at word boundaries (3 lines at most), its bottom edge above the lowest
  `CONTROL_BAR_FRACTION` of the frame, where browsers draw the video controls. A reason longer than the strip holds
  ends with an ellipsis on a word boundary; the full reason is in the report next to the video. (`card`, the
  centred card over the picture, is kept for callers that want it.)

Sizes scale with the frame height (the reference is 360 px).
"""

from __future__ import annotations

import numpy as np

CONTROL_BAR_FRACTION = 0.15  # bottom part of the frame a browser's video controls cover
CARD_BOTTOM_FRACTION = 0.75  # the card's lowest edge, as a fraction of the height (margin above the controls,
# which cover more than 15 % when the player is shown smaller than the video)
CARD_MAX_LINES = 5  # lines of reason on the card at most; the report next to the video has it whole
STRIP_MAX_LINES = 3  # lines of reason in the verdict strip
BACKDROP_RGB = (12, 18, 32)  # around the shrunk picture and under the strip
PANEL_RGBA = (12, 18, 32, 178)
CARD_RGBA = (12, 18, 32, 220)
TEXT_RGB = (255, 255, 255)
MUTED_RGB = (208, 216, 230)
VERDICT_RGB = {
    "PASS": (31, 138, 67),
    "FAIL": (198, 40, 40),
    "WARN": (208, 131, 0),
    "ERROR": (142, 27, 92),
    "PRECHECK_FAILURE": (123, 63, 160),
    "SKIP": (107, 114, 128),
    "NOT_APPLICABLE": (107, 114, 128),
}
_FONT_CACHE: dict = {}


def _font(size: int, bold: bool = False):
    """DejaVu Sans when the system has it, else Pillow's own scalable font (Pillow >= 10.1), else its bitmap font."""
    key = (size, bold)
    if key in _FONT_CACHE:
        return _FONT_CACHE[key]
    from PIL import ImageFont

    font: ImageFont.FreeTypeFont | ImageFont.ImageFont | None = None
    for name in (("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf") if bold else ("DejaVuSans.ttf",
                                                                                  "LiberationSans-Regular.ttf")):
        try:
            font = ImageFont.truetype(name, size)
            break
        except OSError:
            continue
    if font is None:
        try:
            font = ImageFont.load_default(size=size)
        except TypeError:  # Pillow < 10.1: fixed-size bitmap font
            font = ImageFont.load_default()
    _FONT_CACHE[key] = font
    return font


def _width(font, text: str) -> float:
    return float(font.getlength(text))


def _line_height(font) -> int:
    top, bottom = _metrics(font)
    return int(bottom - top)


def _top(font) -> int:
    return _metrics(font)[0]


_METRICS: dict = {}


def _metrics(font) -> tuple[int, int]:
    """(top, bottom) of "Hg" in `font`: a line's height and where its text starts, measured once per font."""
    key = id(font)
    if key not in _METRICS:
        top, bottom = font.getbbox("Hg")[1::2]
        _METRICS[key] = (int(top), int(bottom))
    return _METRICS[key]


def fit(font, text: str, max_width: float, words: bool = True) -> str:
    """`text` cut (on a word boundary unless `words` is False; ellipsis added) to at most `max_width` pixels."""
    if _width(font, text) <= max_width:
        return text
    if not words:
        while text and _width(font, text + "…") > max_width:
            text = text[:-1]
        return text + "…"
    kept = text.split(" ")
    while len(kept) > 1:
        kept.pop()
        candidate = " ".join(kept) + " …"
        if _width(font, candidate) <= max_width:
            return candidate
    while text and _width(font, text + "…") > max_width:  # one long word: cut it
        text = text[:-1]
    return text + "…"


def wrap(font, text: str, max_width: float, max_lines: int) -> list[str]:
    """Greedy word wrap by pixel width; when the text needs more lines, the last one ends in " …"."""
    lines: list[str] = []
    current = ""
    words = text.split()
    for index, word in enumerate(words):
        candidate = f"{current} {word}" if current else word
        if _width(font, candidate) <= max_width:
            current = candidate
            continue
        if current:
            lines.append(current)
        if len(lines) == max_lines:
            lines[-1] = fit(font, lines[-1] + " " + " ".join(words[index:]), max_width)
            return lines
        current = word if _width(font, word) <= max_width else fit(font, word, max_width)
    if current:
        if len(lines) == max_lines:
            lines[-1] = fit(font, lines[-1] + " " + current, max_width)
        else:
            lines.append(current)
    return lines


class Overlay:
    """Draws the caption on every frame and the verdict card on the last ones."""

    def __init__(self, width: int, height: int):
        self.width, self.height = int(width), int(height)
        scale = max(self.height / 360.0, 0.5)
        self.scale = scale
        self.title_font = _font(max(8, round(15 * scale)), bold=True)
        self.text_font = _font(max(8, round(13 * scale)))
        self.verdict_font = _font(max(9, round(20 * scale)), bold=True)
        self.reason_font = _font(max(8, round(13 * scale)))
        self.margin = max(4, round(8 * scale))
        self.pad = max(3, round(6 * scale))
        self._fitted: dict = {}  # (font, text, width) -> the text cut to fit (caption lines repeat frame after frame)
        self._widths: dict = {}  # (font, text) -> its width in pixels
        self._panels: dict = {}  # the caption's panel with its unchanging lines drawn (caption(fresh=...))

    def caption(self, image: np.ndarray, lines: list[tuple[str, tuple[int, int, int]]], fresh: int | None = None
                ) -> np.ndarray:
        """Top-left panel: [(text, rgb)]; the first line in bold. Returns the new image. `fresh`: the index of the one
        line that changes from frame to frame (a video's time): the panel with the other lines is drawn once and kept,
        and only that line is drawn on a copy (the lines never overlap: the picture is the same)."""
        from PIL import Image, ImageDraw

        kept = [i for i, (t, _) in enumerate(lines) if t]
        fresh = kept.index(fresh) if fresh in kept else None
        lines = [lines[i] for i in kept]
        if not lines:
            return image
        max_text = self.width - 2 * self.margin - 2 * self.pad
        fonts = [self.title_font] + [self.text_font] * (len(lines) - 1)
        texts = [self._fit(f, t, max_text) for f, (t, _) in zip(fonts, lines)]
        gap = max(2, round(3 * self.scale))
        heights = [_line_height(f) for f in fonts]
        box_w = max(self._width(f, t) for f, t in zip(fonts, texts)) + 2 * self.pad
        box_h = sum(heights) + gap * (len(lines) - 1) + 2 * self.pad
        x0, y0 = self.margin, self.margin
        # Only the panel's rectangle is composited (the rest of the frame is unchanged): a tenth of the work.
        x1, y1 = min(self.width, int(np.ceil(x0 + box_w)) + 1), min(self.height, int(np.ceil(y0 + box_h)) + 1)
        tops = [y0 + self.pad + sum(heights[:i]) + gap * i for i in range(len(lines))]
        key = (x1 - x0, y1 - y0, box_w, box_h, tuple((t, c) for i, (t, (_, c)) in enumerate(zip(texts, lines)) if i != fresh))
        layer = self._panels.get(key) if fresh is not None else None
        if layer is None:
            layer = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
            draw = ImageDraw.Draw(layer)
            draw.rounded_rectangle((0, 0, box_w, box_h), radius=self.pad, fill=PANEL_RGBA)
            for index, (font, text, (_, color), top) in enumerate(zip(fonts, texts, lines, tops)):
                if index != fresh:
                    draw.text((self.pad, top - y0 - _top(font)), text, font=font, fill=color + (255,))
            if fresh is not None:
                if len(self._panels) >= 64:
                    self._panels.clear()
                self._panels[key] = layer
        if fresh is not None:
            layer = layer.copy()
            font, color = fonts[fresh], lines[fresh][1]
            ImageDraw.Draw(layer).text((self.pad, tops[fresh] - y0 - _top(font)), texts[fresh], font=font,
                                       fill=color + (255,))
        base = Image.fromarray(np.ascontiguousarray(image[y0:y1, x0:x1])).convert("RGBA")
        out = np.array(image, copy=True)
        out[y0:y1, x0:x1] = np.asarray(Image.alpha_composite(base, layer).convert("RGB"))
        return out

    def _fit(self, font, text: str, max_width: float) -> str:
        key = (id(font), text, max_width)
        if key not in self._fitted:
            if len(self._fitted) >= 4096:
                self._fitted.clear()
            self._fitted[key] = fit(font, text, max_width, words=False)
        return self._fitted[key]

    def _width(self, font, text: str) -> float:
        key = (id(font), text)
        if key not in self._widths:
            if len(self._widths) >= 4096:
                self._widths.clear()
            self._widths[key] = _width(font, text)
        return self._widths[key]

    def card(self, image: np.ndarray, verdict: str, reason: str) -> tuple[np.ndarray, tuple[int, int, int, int], list[str]]:
        """The verdict card above the control bar: (image, its box (x0, y0, x1, y1) in pixels, the reason's lines)."""
        from PIL import Image, ImageDraw

        base = Image.fromarray(image).convert("RGBA")
        layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(layer)
        pad, gap = 2 * self.pad, self.pad
        max_w = int(self.width * 0.86)
        bottom_limit = int(self.height * CARD_BOTTOM_FRACTION)
        top_limit = int(self.height * 0.14)
        badge_h = _line_height(self.verdict_font) + 2 * self.pad
        line_h = _line_height(self.reason_font) + max(2, round(3 * self.scale))
        room = bottom_limit - top_limit - 2 * pad - badge_h - gap
        max_lines = max(1, min(CARD_MAX_LINES, room // line_h))
        lines = wrap(self.reason_font, reason, max_w - 2 * pad, max_lines) if reason else []
        badge_w = _width(self.verdict_font, verdict) + 3 * self.pad
        text_w = max([badge_w] + [_width(self.reason_font, line) for line in lines])
        card_w = int(min(max_w, text_w + 2 * pad))
        card_h = int(2 * pad + badge_h + (gap + line_h * len(lines) if lines else 0))
        x0 = (self.width - card_w) // 2
        y0 = max(top_limit, bottom_limit - card_h)  # low, so the asset (framed in the centre) stays in view
        color = VERDICT_RGB.get(verdict, (90, 90, 90))
        draw.rounded_rectangle((x0, y0, x0 + card_w, y0 + card_h), radius=pad, fill=CARD_RGBA, outline=color + (255,),
                               width=max(2, round(2 * self.scale)))
        bx, by = x0 + pad, y0 + pad
        draw.rounded_rectangle((bx, by, bx + badge_w, by + badge_h), radius=self.pad, fill=color + (255,))
        top = self.verdict_font.getbbox("Hg")[1]
        draw.text((bx + 1.5 * self.pad, by + self.pad - top), verdict, font=self.verdict_font, fill=TEXT_RGB + (255,))
        y = by + badge_h + gap
        top = self.reason_font.getbbox("Hg")[1]
        for line in lines:
            draw.text((x0 + pad, y - top), line, font=self.reason_font, fill=MUTED_RGB + (255,))
            y += line_h
        out = np.asarray(Image.alpha_composite(base, layer).convert("RGB"))
        return out, (int(x0), int(y0), int(x0 + card_w), int(y0 + card_h)), lines

    def strip_card(self, image: np.ndarray, verdict: str, reason: str, subtitle: str = ""
                   ) -> tuple[np.ndarray, tuple[int, int, int, int], tuple[int, int, int, int], list[str]]:
        """The final frame: `image` (the asset's last pose) shrunk into the top, the verdict strip below it.
        Returns (frame, the shrunk picture's box, the strip's box, the reason's lines); boxes are (x0, y0, x1, y1)."""
        from PIL import Image, ImageDraw

        pad, gap = 2 * self.pad, self.pad
        badge_h = _line_height(self.verdict_font) + 2 * self.pad
        line_h = _line_height(self.reason_font) + max(2, round(3 * self.scale))
        max_w = self.width - 2 * self.margin
        lines = wrap(self.reason_font, reason, max_w - 2 * pad, STRIP_MAX_LINES) if reason else []
        strip_h = int(2 * pad + badge_h + (gap + line_h * len(lines) if lines else 0))
        bottom = int(self.height * (1.0 - CONTROL_BAR_FRACTION)) - self.margin
        top = max(int(self.height * 0.3), bottom - strip_h)
        picture_h = top - self.margin
        picture_w = int(round(self.width * picture_h / self.height))
        px = (self.width - picture_w) // 2
        frame = Image.new("RGB", (self.width, self.height), BACKDROP_RGB)
        frame.paste(Image.fromarray(image).resize((picture_w, picture_h), getattr(Image, "Resampling", Image).LANCZOS), (px, 0))
        base = frame.convert("RGBA")
        layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
        draw = ImageDraw.Draw(layer)
        color = VERDICT_RGB.get(verdict, (90, 90, 90))
        x0, x1 = self.margin, self.width - self.margin
        draw.rounded_rectangle((x0, top, x1, bottom), radius=pad, fill=CARD_RGBA, outline=color + (255,),
                               width=max(2, round(2 * self.scale)))
        bx, by = x0 + pad, top + pad
        badge_w = _width(self.verdict_font, verdict) + 3 * self.pad
        draw.rounded_rectangle((bx, by, bx + badge_w, by + badge_h), radius=self.pad, fill=color + (255,))
        head = self.verdict_font.getbbox("Hg")[1]
        draw.text((bx + 1.5 * self.pad, by + self.pad - head), verdict, font=self.verdict_font, fill=TEXT_RGB + (255,))
        if subtitle:
            sub = fit(self.text_font, subtitle, x1 - pad - (bx + badge_w + pad), words=False)
            sub_top = self.text_font.getbbox("Hg")[1]
            draw.text((bx + badge_w + pad, by + (badge_h - _line_height(self.text_font)) / 2 - sub_top), sub,
                      font=self.text_font, fill=MUTED_RGB + (255,))
        y = by + badge_h + gap
        head = self.reason_font.getbbox("Hg")[1]
        for line in lines:
            draw.text((x0 + pad, y - head), line, font=self.reason_font, fill=MUTED_RGB + (255,))
            y += line_h
        out = np.asarray(Image.alpha_composite(base, layer).convert("RGB"))
        return out, (int(px), 0, int(px + picture_w), int(picture_h)), (int(x0), int(top), int(x1), int(bottom)), lines
