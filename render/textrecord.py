"""Where every string on a board is drawn: a recorder for tests of clipped and colliding text.

A board's text is drawn on many surfaces: the cached static layer, sprites drawn at 3x and
scaled down, labels drawn on a tile and turned upright, and the board itself. To check the
finished picture, a test needs each string's box in the board's pixels and the whole string
it was meant to show. Inside ``with TextRecorder() as rec:``

- every ``ImageDraw.text`` (``core.Draw`` included) notes the ink box of the string it draws,
  on the image it draws on;
- pasting, compositing, copying, cropping, converting, scaling and turning an image carries its
  boxes along into the result, so a sprite's labels land where the sprite lands; a pasted
  image is noted too (a picture: what a string may not run into), and a filled rectangle or an
  opaque paste hides the strings it covers;
- `core.fit_text` reports each shortened string with the string and the room it was given.

``rec.texts(image)`` then lists what the image shows. Outside the block nothing is wrapped: the
renderers run exactly as in production. Entering clears the renderers' caches (``lru_cache``
functions of the loaded ``render`` modules), so sprites are drawn again and recorded.
"""
from __future__ import annotations

import inspect
import sys
import weakref
from dataclasses import dataclass, replace
from typing import Any, Iterator

from PIL import Image, ImageDraw, ImageFont

from . import core

ELLIPSIS = "…"

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class DrawnText:
    """One string as drawn: ``box`` its ink (left, top, right, bottom) and ``frame`` the bounds of
    the surface it was drawn on, both in the pixels of the image that holds it; ``meant`` the
    whole string (differs from ``text`` only when shortened), ``meant_width`` its width in the
    font drawn, and ``room`` the width `fit_text` was given (None when the string did not go
    through it); ``px`` the font's size (its em height: what a reader sees as the size of the
    text, whatever letters it has), scaled with the surface. A pasted picture (an icon, a
    piece, a tile) is recorded too, with no text: it is what a string may not run into."""

    text: str
    meant: str
    meant_width: float
    room: float | None
    box: Box
    frame: Box
    px: float = 0.0

    @property
    def picture(self) -> bool:
        return not self.text

    @property
    def shortened(self) -> bool:
        return self.text != self.meant

    def moved(self, dx: float, dy: float) -> "DrawnText":
        return replace(self, box=_shift(self.box, dx, dy), frame=_shift(self.frame, dx, dy))

    def scaled(self, fx: float, fy: float) -> "DrawnText":
        return replace(self, box=_scale(self.box, fx, fy), frame=_scale(self.frame, fx, fy),
                       px=self.px * min(fx, fy))

    def turned(self, quarter_turns: int, width: int, height: int) -> "DrawnText":
        return replace(self, box=_turn(self.box, quarter_turns, width, height),
                       frame=_turn(self.frame, quarter_turns, width, height))


def _shift(b: Box, dx: float, dy: float) -> Box:
    return (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)


def _scale(b: Box, fx: float, fy: float) -> Box:
    return (b[0] * fx, b[1] * fy, b[2] * fx, b[3] * fy)


def _turn(b: Box, quarter_turns: int, width: int, height: int) -> Box:
    """``b`` after an image of ``width`` x ``height`` turns anticlockwise ``quarter_turns`` times."""
    for _ in range(quarter_turns % 4):
        b = (b[1], width - b[2], b[3], width - b[0])
        width, height = height, width
    return b


class TextRecorder:
    """Records the text drawn while it is active; see the module docstring. Not re-entrant."""

    def __init__(self) -> None:
        self._by_image: dict[int, tuple[Any, list[DrawnText]]] = {}
        self._fits: dict[tuple[str, ImageFont.FreeTypeFont], tuple[str, float]] = {}
        self._saved: list[tuple[type, str, Any]] = []
        self._depth = 0

    # --- what a test reads -------------------------------------------------
    def texts(self, image: Image.Image) -> list[DrawnText]:
        """The strings ``image`` shows and the pictures pasted on it, in drawing order."""
        entry = self._by_image.get(id(image))
        return list(entry[1]) if entry is not None else []

    # --- hooks ---------------------------------------------------------------
    def fitted(self, fitted: str, meant: str, fnt: ImageFont.FreeTypeFont, room: float) -> None:
        key = (fitted, fnt)
        if fitted != meant or key not in self._fits:
            self._fits[key] = (meant, room)

    def _meaning(self, text: str, fnt: ImageFont.FreeTypeFont) -> tuple[str, float | None]:
        """The whole string behind ``text`` drawn in ``fnt``, which may hold a shortened one
        ("Bob… wins!")."""
        if (text, fnt) in self._fits:
            return self._fits[text, fnt]
        if ELLIPSIS in text:
            for (fitted, used), (meant, room) in self._fits.items():
                if used is fnt and fitted.endswith(ELLIPSIS) and fitted in text:
                    return text.replace(fitted, meant, 1), room
        return text, None

    def _add(self, image: Any, items: list[DrawnText]) -> None:
        if not items:
            return
        key = id(image)
        entry = self._by_image.get(key)
        if entry is None:
            ref = weakref.ref(image, lambda _r, key=key: self._by_image.pop(key, None))
            entry = self._by_image[key] = (ref, [])
        entry[1].extend(items)

    def _drew(self, draw: ImageDraw.ImageDraw, xy, text, font, anchor, stroke_width) -> None:
        image = getattr(draw, "_image", None)
        if image is None or not isinstance(text, str) or not text.strip():
            return
        fnt = font if isinstance(font, ImageFont.FreeTypeFont) else draw.getfont()
        if "\n" in text:
            box = draw.textbbox(xy, text, font=fnt, anchor=anchor, stroke_width=stroke_width)
        else:
            l, t, r, b = fnt.getbbox(text, anchor=anchor or "la", stroke_width=stroke_width)
            box = (xy[0] + l, xy[1] + t, xy[0] + r, xy[1] + b)
        meant, room = self._meaning(text, fnt)
        width = fnt.getlength(meant) if meant != text else box[2] - box[0]
        self._add(image, [DrawnText(text, meant, width, room, tuple(box), (0, 0, image.width, image.height),
                                    float(fnt.size))])

    def _covered(self, image: Any, area: Box) -> None:
        """Forget what ``image`` showed inside ``area``: something opaque was drawn over it."""
        entry = self._by_image.get(id(image))
        if entry is not None:
            entry[1][:] = [t for t in entry[1] if not _inside(t.box, area)]

    def _carry(self, source: Any, target: Any, how) -> None:
        entry = self._by_image.get(id(source))
        if entry is not None and target is not None and target is not source:
            self._add(target, [how(t) for t in entry[1]])

    def _outermost(self, operation):
        """``operation`` carrying boxes only when no other wrapped call is under way: Pillow's
        own methods call each other (``convert`` to the same mode is a ``copy``), and the boxes
        must move once."""
        def outer(*args, **kwargs):
            if self._depth:
                return operation.__wrapped__(*args, **kwargs)
            self._depth += 1
            try:
                return operation(*args, **kwargs)
            finally:
                self._depth -= 1
        return outer

    # --- switching on and off --------------------------------------------------
    def __enter__(self) -> "TextRecorder":
        if core.fit_listener is not None:
            raise RuntimeError("a TextRecorder is already recording")
        _clear_render_caches()
        core.fit_listener = self.fitted
        for cls, name, wrapper in self._wrappers():
            self._saved.append((cls, name, cls.__dict__[name]))
            setattr(cls, name, wrapper)
        return self

    def __exit__(self, *exc: object) -> None:
        for cls, name, original in reversed(self._saved):
            setattr(cls, name, original)
        self._saved.clear()
        core.fit_listener = None
        _clear_render_caches()  # leave the caches as a render without a recorder finds them

    def _wrappers(self) -> Iterator[tuple[type, str, Any]]:
        rec = self

        def text_wrapper(original):
            def text(draw, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):
                outer = rec._depth == 0
                rec._depth += 1
                try:
                    original(draw, xy, text, fill, font, anchor, *args, **kwargs)
                finally:
                    rec._depth -= 1
                if outer:
                    rec._drew(draw, xy, text, font, anchor, kwargs.get("stroke_width", 0))
            return text

        for cls in (ImageDraw.ImageDraw, core.Draw):
            yield cls, "text", text_wrapper(cls.__dict__["text"])

        def fill_wrapper(original):
            signature = inspect.signature(original)

            def shape(draw, *args, **kwargs):
                original(draw, *args, **kwargs)
                given = signature.bind(draw, *args, **kwargs).arguments
                if given.get("fill") is not None:
                    rec._covered(draw._image, _as_box(given["xy"]))
            return shape

        for name in ("rectangle", "rounded_rectangle"):
            yield ImageDraw.ImageDraw, name, fill_wrapper(ImageDraw.ImageDraw.__dict__[name])

        img = Image.Image
        paste, alpha_composite = img.paste, img.alpha_composite
        copy, crop, convert, resize = img.copy, img.crop, img.convert, img.resize
        rotate, filter_ = img.rotate, img.filter

        def paste_(target, im, box=None, mask=None):
            paste(target, im, box, mask)
            if isinstance(box, Image.Image):
                box, mask = None, box
            x, y = (box or (0, 0))[:2]
            if not isinstance(im, Image.Image):
                if box is not None and len(box) == 4:
                    rec._covered(target, box)
                return
            area = (x, y, x + im.width, y + im.height)
            if mask is None:
                rec._covered(target, area)
            rec._add(target, [DrawnText("", "", 0.0, None, area, (0, 0, target.width, target.height))])
            rec._carry(im, target, lambda t: t.moved(x, y))

        def alpha_composite_(target, im, dest=(0, 0), source=(0, 0)):
            alpha_composite(target, im, dest, source)
            dx, dy = dest[0] - source[0], dest[1] - source[1]
            rec._carry(im, target, lambda t: t.moved(dx, dy))

        def same(original):
            def kept(self, *args, **kwargs):
                out = original(self, *args, **kwargs)
                rec._carry(self, out, lambda t: t)
                return out
            return kept

        def crop_(self, box=None):
            out = crop(self, box)
            if box is not None:
                rec._carry(self, out, lambda t: t.moved(-box[0], -box[1]))
            else:
                rec._carry(self, out, lambda t: t)
            return out

        def resize_(self, size, *args, **kwargs):
            out = resize(self, size, *args, **kwargs)
            fx, fy = size[0] / self.width, size[1] / self.height
            rec._carry(self, out, lambda t: t.scaled(fx, fy))
            return out

        def rotate_(self, angle, *args, **kwargs):
            out = rotate(self, angle, *args, **kwargs)
            quarter, rest = divmod(angle, 90)
            if rest == 0 and out.size in (self.size, self.size[::-1]):
                w, h = self.size
                rec._carry(self, out, lambda t: t.turned(int(quarter), w, h))
            return out

        carriers = {"paste": (paste, paste_), "alpha_composite": (alpha_composite, alpha_composite_),
                    "copy": (copy, same(copy)), "convert": (convert, same(convert)),
                    "filter": (filter_, same(filter_)), "crop": (crop, crop_), "resize": (resize, resize_),
                    "rotate": (rotate, rotate_)}
        for name, (original, carrier) in carriers.items():
            carrier.__wrapped__ = original
            yield img, name, self._outermost(carrier)


def _inside(box: Box, area: Box) -> bool:
    return area[0] <= box[0] and area[1] <= box[1] and box[2] <= area[2] + 1 and box[3] <= area[3] + 1


def _as_box(xy: Any) -> Box:
    """A shape's bounds as ImageDraw takes them: (x0, y0, x1, y1) or ((x0, y0), (x1, y1))."""
    flat = [v for point in xy for v in (point if isinstance(point, (tuple, list)) else (point,))]
    return (flat[0], flat[1], flat[2], flat[3])


def _clear_render_caches() -> None:
    for name, module in list(sys.modules.items()):
        if name == "render" or name.startswith("render."):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()
