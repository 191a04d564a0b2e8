"""Every string the board renderers draw, for tests that check what a picture says."""
from __future__ import annotations

import sys

import pytest
from PIL import ImageDraw

from render import core


def record_drawn_text(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Start recording every string drawn (Pillow's `text` and render.core's glyph-caching one),
    with the renderers' caches emptied so that layers drawn earlier in this process (a static
    board, a header sprite) are drawn, and read, again."""
    drawn: list[str] = []
    for cls in (ImageDraw.ImageDraw, core.Draw):
        original = cls.text

        def recording(self, xy, text, *args, _original=original, **kwargs):
            drawn.append(str(text))
            return _original(self, xy, text, *args, **kwargs)

        monkeypatch.setattr(cls, "text", recording)
    for name, module in list(sys.modules.items()):
        if name == "render" or name.startswith("render."):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()
    return drawn
