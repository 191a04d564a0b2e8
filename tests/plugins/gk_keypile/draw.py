"""Key Pile's board: the pile of keys left, drawn with Pillow."""
from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw


def draw(view: dict[str, Any]) -> bytes:
    image = Image.new("RGB", (40 + 30 * max(view["pile"], 1), 80), (36, 39, 46))
    pen = ImageDraw.Draw(image)
    for index in range(view["pile"]):
        x = 20 + 30 * index
        pen.ellipse((x, 25, x + 20, 45), outline=(230, 190, 30), width=3)
        pen.line((x + 20, 35, x + 28, 35), fill=(230, 190, 30), width=3)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
