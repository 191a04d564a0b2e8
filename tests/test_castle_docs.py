"""The rules page and data file: sections the bot can show, numbers the engine uses."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "games" / "castle.md"


def sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    return {p.split("\n", 1)[0].strip(): p.split("\n", 1)[1] for p in parts}


def test_rules_page_has_one_short_section_per_topic():
    secs = sections()
    for topic in ("Overview", "Setup", "Turn", "Cards", "Doors", "Moving", "Winning",
                  "House rules", "Commands"):
        assert topic in secs, topic
    for name, body in secs.items():
        assert len("## " + name + "\n" + body) < 1800, (name, len(body))


def test_commands_section_covers_the_grammar():
    body = sections()["Commands"]
    for form in ("play key-red C3", "play skeleton C3 unlock", "play padlock C3", "play hacksaw C3",
                 "play passage C3 D4", "play net C3", "discard", "bonus C3", "bonus skip",
                 "move C4", "move out", "stay"):
        assert form in body, form


def test_house_rules_match_data():
    data = tomllib.loads((ROOT / "data" / "castle" / "castle.toml").read_text())
    body = sections()["House rules"]
    assert str(data["rules"]["max_turns"]) in body
    assert str(data["rules"]["net_turns"]) in sections()["Cards"]


def test_engine_never_reads_shared_folder():
    for path in (ROOT / "games" / "castle").rglob("*.py"):
        assert "/work/shared" not in path.read_text(encoding="utf-8")
