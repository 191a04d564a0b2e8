"""Game engines and renderers stay free of Discord: only bot/ talks to it."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATTERN = re.compile(r"^\s*(import\s+discord\b|from\s+discord\b)", re.M)


def test_no_discord_imports_in_games_or_render():
    offenders = []
    for folder in ("games", "render"):
        for path in (ROOT / folder).rglob("*.py"):
            if PATTERN.search(path.read_text(encoding="utf-8")):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
