"""The Warlock of Firetop Mountain's rules page: short sections for /rules, house rules that match
the data, a command for every verb."""
from __future__ import annotations

import re
from pathlib import Path

from games.firetop import GAME
from games.firetop.board import BOARD
from games.firetop.content import BRIDGE, CARDS, ESCAPE, FIXED, TREASURES, WARES

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "games" / "firetop.md"


def sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)[1:]
    return {p.split("\n", 1)[0].strip(): p.split("\n", 1)[1] for p in parts}


def test_the_docs_page_is_the_packaged_rules_page():
    assert DOC.is_symlink() and DOC.read_text(encoding="utf-8") == GAME.rules_text()


def test_rules_page_has_one_short_section_per_topic():
    secs = sections()
    for topic in ("Overview", "Adventurers", "Setup", "Turn", "Battles", "Escaping", "Keys", "Passages",
                  "River", "Maze", "Death", "Board", "Cards", "House rules", "Commands"):
        assert topic in secs, topic
    for name, body in secs.items():
        assert len("**" + name + "**\n" + body.strip()) < 2000, (name, len(body))  # one Discord message


def test_every_verb_has_a_command():
    body = sections()["Commands"]
    for verb in GAME.verbs:
        assert f"`{verb}" in body, verb


def faces(row: dict) -> str:
    f = row["faces"]
    return str(f[0]) if len(f) == 1 else f"{f[0]}-{f[-1]}"


def test_house_rules_match_the_data():
    page = " ".join(DOC.read_text(encoding="utf-8").split())
    cards = " ".join(sections()["Cards"].split())
    for spec in list(CARDS.values()) + [FIXED["captain"], FIXED["crocodile"]]:
        assert spec["name"].split()[-1].lower() in cards.lower(), spec["name"]
        if "skill" in spec and spec["name"] not in ("Hobgoblin Captain", "River Crocodile"):
            assert f"{spec['name']} {spec['skill']}/{spec['stamina']}" in cards
    for cid, card in TREASURES.items():
        if card["kind"] == "keys":
            assert "-".join(map(str, card["keys"])) in cards
    for ware in WARES.values():
        assert f"{ware['price']} Gold" in cards or f"for {ware['price']}" in cards
    escape = cards.split("**Escape Table**")[1].split("**Bridge Table**")[0]
    for row in ESCAPE:
        assert f"{faces(row)} {'away' if row['escaped'] else 'held'}" in escape
        assert (f"lose {-row['stamina']}" in escape) if row["stamina"] else "unhurt" in escape
    bridge = cards.split("**Bridge Table**")[1]
    for row in BRIDGE:
        words = {"fall": "fall in", "back": "turn back", "cross": "cross"}[row["result"]]
        assert f"{faces(row)} you {words}" in bridge
    for crossing in BOARD.crossings.values():
        assert f"{crossing['south']}-{crossing['north']}" in page
    for colour, spec in BOARD.passage_colours.items():
        assert all(e in page for e in spec["entrances"]), colour
    assert all(g in page for g in BOARD.maze_gates)
    rounds = GAME.option_choices["rounds"]
    assert f"round {rounds[0]}" in page and all(str(r) in sections()["House rules"] for r in rounds)
    assert page.count("*House rule:*") >= 12


def test_the_engine_never_reads_the_shared_folder():
    for path in (ROOT / "games" / "firetop").rglob("*.py"):
        assert "/work/shared" not in path.read_text(encoding="utf-8")
