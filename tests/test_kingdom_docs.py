"""Key to the Kingdom's rules page: sections the bot can show (each fits a Discord message), every
hazard of the handbook described, house rules that match the data, every command explained."""
from __future__ import annotations

import re
from pathlib import Path

from games.kingdom import GAME
from games.kingdom.hazards import HAZARDS
from games.kingdom.stock import SETUP

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "games" / "kingdom.md"


def sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    return {p.split("\n", 1)[0].strip(): p.split("\n", 1)[1] for p in parts}


def test_the_docs_page_is_the_shipped_rules_page():
    assert DOC.is_symlink() and DOC.resolve() == (ROOT / "data" / "kingdom" / "rules.md").resolve()
    assert GAME.rules_text() == DOC.read_text(encoding="utf-8")


def test_rules_page_has_one_short_section_per_topic():
    secs = sections()
    for topic in ("Overview", "Setup", "Board", "Turn", "Moving", "Demon King", "Hazards", "Key Locations",
                  "Treasures", "Whirlpools", "Winning", "House rules", "Commands"):
        assert topic in secs, topic
    for name, body in secs.items():
        assert len("## " + name + "\n" + body) < 1800, (name, len(body))


def test_every_hazard_is_described():
    text = DOC.read_text(encoding="utf-8")
    for hz in HAZARDS.values():
        if hz.id in ("fight", "caught", "bt_dungeon", "demon_dungeon"):
            continue
        assert f"**{hz.name}**" in text or f"## {hz.name}" in text, hz.name


def test_house_rules_match_the_data():
    body = sections()["House rules"] + sections()["House rules for hazards"]
    for rounds in SETUP["rounds"]:
        assert str(rounds) in body
    assert "*house rule*" in DOC.read_text(encoding="utf-8")
    lanes = HAZARDS["broken_bridge"].lanes
    assert f"Broken Bridge {lanes['bridge']} planks" in body


def test_commands_cover_every_verb():
    body = sections()["Commands"]
    for verb in GAME.verbs:
        assert f"`{verb}" in body, verb


def test_engine_never_reads_the_shared_folder():
    for folder in ("games/kingdom", "render"):
        for path in (ROOT / folder).rglob("*.py"):
            assert "/work/shared" not in path.read_text(encoding="utf-8")


def test_the_demon_king_is_said_to_move_on_throws_to_move_only():
    body = sections()["Demon King"]
    assert "every throw" not in body
    assert "throw to move" in body and "hazard" in body
