"""Static content shipped with Gatekeeper: board and card data, fonts, rules pages.

Read through importlib.resources, so it works the same from a clone, an editable install, a
wheel or a zip. Each game's folder (data/<game>/) holds its TOML and its rules page
(rules.md, which docs/games/<game>.md links to; rules.<language>.md in each other language).

May import: nothing of the project.
"""
from __future__ import annotations

import tomllib
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any


def resource(*parts: str) -> Traversable:
    """A file shipped in this package, e.g. resource("fonts", "DejaVuSans.ttf")."""
    return files(__name__).joinpath(*parts)


def load_toml(*parts: str) -> dict[str, Any]:
    return tomllib.loads(resource(*parts).read_text(encoding="utf-8"))
