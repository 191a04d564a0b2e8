"""The game's content, loaded once from data/firetop/*.toml and checked at import.

Encounters are effects: lists of steps with ids and registered ops (see `effects.OPS`); a bad
op, a duplicate step id or a jump to a missing step fails here, when the game loads, not in play.
"""
from __future__ import annotations

from typing import Any

from data import load_toml
from data.locales import Msg

CONFIG: dict[str, Any] = load_toml("firetop", "game.toml")
_ENC: dict[str, Any] = load_toml("firetop", "encounters.toml")
_TRE: dict[str, Any] = load_toml("firetop", "treasures.toml")

CHAR = CONFIG["character"]
SKILL_TABLE: list[int] = CHAR["skill_table"]
RUCKSACK: int = CHAR["rucksack"]
MAX_SWORDS: int = CHAR["swords"]
EAT: int = CHAR["eat"]
NUMBERS: int = CONFIG["keys"]["numbers"]
CHEST_KEYS: int = CONFIG["keys"]["chest"]
WOUND: int = CONFIG["battle"]["wound"]
KILL_LUCK: int = CONFIG["battle"]["kill_luck"]
FERRY_GOLD: int = CONFIG["river"]["ferry_gold"]
STOP_AT_CROSSING: bool = CONFIG["river"]["stop_at_crossing"]
FLEE_STEPS: int = CONFIG["escape"]["duel_distance"]
MAZE_CARDS: list[str] = CONFIG["maze"]["cards"]
ROLL_WAIT: float = float(CONFIG["timing"]["roll_wait"])

FIXED: dict[str, dict[str, Any]] = _ENC["fixed"]
CARDS: dict[str, dict[str, Any]] = _ENC["cards"]
WARES: dict[str, dict[str, Any]] = _ENC["wares"]
ESCAPE: list[dict[str, Any]] = _ENC["escape"]
BRIDGE: list[dict[str, Any]] = _ENC["bridge"]
TREASURES: dict[str, dict[str, Any]] = _TRE["cards"]
KEY_TREASURES: list[str] = [cid for cid, c in TREASURES.items() if c["kind"] == "keys"]
OTHER_TREASURES: list[str] = [cid for cid, c in TREASURES.items() if c["kind"] != "keys"]
ITEM_USES = {"shield", "draught", "charm"}


def effect(source: str) -> dict[str, Any]:
    """The spec of an effect named "fixed:<id>" or "card:<id>"."""
    kind, _, ident = source.partition(":")
    return (FIXED if kind == "fixed" else CARDS)[ident]


def is_monster(source: str) -> bool:
    return "skill" in effect(source)


def _index(spec: dict[str, Any]) -> None:
    """Give each effect `index` (id -> step) and `next` (id -> the id after it, or "end")."""
    steps = spec["steps"]
    ids = [s["id"] for s in steps]
    if len(set(ids)) != len(ids) or "end" in ids:
        raise ValueError(f"effect {spec['name']!r}: step ids must be unique and not 'end'")
    spec["index"] = {s["id"]: s for s in steps}
    spec["next"] = {a: b for a, b in zip(ids, ids[1:] + ["end"])}


def _table_faces(rows: list[dict[str, Any]], what: str) -> None:
    faces = sorted(f for row in rows for f in row["faces"])
    if faces != [1, 2, 3, 4, 5, 6]:
        raise ValueError(f"the {what} table must give each face of a d6 exactly once")


def check(ops: dict[str, Any]) -> None:
    """Fail at import on content the engine cannot run."""
    for table in (FIXED, CARDS):
        for ident, spec in table.items():
            _index(spec)
            for step in spec["steps"]:
                if step["op"] not in ops:
                    raise ValueError(f"effect {ident}: unknown op {step['op']!r}")
                for jump in ("then", "lucky", "unlucky"):
                    target = step.get(jump)
                    if target is not None and target != "end" and target not in spec["index"]:
                        raise ValueError(f"effect {ident}: step {step['id']} jumps to missing {target!r}")
            if any(s["op"] == "fight" for s in spec["steps"]) and "skill" not in spec:
                raise ValueError(f"effect {ident}: a fight needs the monster's skill and stamina")
    _table_faces(ESCAPE, "escape")
    _table_faces(BRIDGE, "bridge")
    for row in BRIDGE:
        if row["result"] not in ("fall", "back", "cross"):
            raise ValueError(f"bridge result {row['result']!r} is not fall, back or cross")
    numbers = sorted(n for cid in KEY_TREASURES for n in TREASURES[cid]["keys"])
    if set(numbers) != set(range(1, NUMBERS + 1)):
        raise ValueError("every key number must be on some Bunch of Keys")
    for cid, card in TREASURES.items():
        if card["kind"] == "item" and card.get("use") not in ITEM_USES:
            raise ValueError(f"treasure {cid}: unknown use {card.get('use')!r}")
    sellable = [c for c in TREASURES if TREASURES[c]["kind"] in ("item", "sword")]
    for ware in WARES.values():
        if ware["gives"] not in ("provisions", *sellable):
            raise ValueError(f"ware {ware['name']!r} gives an unknown thing")
    if sorted(set(MAZE_CARDS)) != ["dead", "open"]:
        raise ValueError("Maze cards are 'open' or 'dead'")


def treasure_name(cid: str) -> str:
    """A treasure card as players type it (English, like every typed move): "Gaoler's Keys (1, 4, 7)"."""
    card = TREASURES[cid]
    if card["kind"] == "keys":
        return f"{card['name']} ({', '.join(map(str, card['keys']))})"
    return card["name"]


def name(key: str) -> Msg:
    """A name of this game's catalogs, `game.firetop.<key>`."""
    return Msg("game.firetop." + key)


TREASURE_WORDS = {cid: Msg("game.firetop.keyring", name=name(f"treasure.{cid}"),
                           keys=", ".join(map(str, card["keys"])))
                  if card["kind"] == "keys" else name(f"treasure.{cid}") for cid, card in TREASURES.items()}
# a button names a Bunch of Keys by its keys alone ("Silver Keys (1, 4, 7)"): the label stays short
SHORT_TREASURE_WORDS = {cid: Msg("game.firetop.keyring", name=name(f"treasure.{cid}.short"),
                                 keys=", ".join(map(str, card["keys"])))
                        if card["kind"] == "keys" else TREASURE_WORDS[cid] for cid, card in TREASURES.items()}
ENCOUNTER_WORDS = {ident: name(f"encounter.{ident}") for table in (FIXED, CARDS) for ident in table}
# a battle keeps its monster's name in the state (and the view): its words are found by it
MONSTER_WORDS = {spec["name"]: ENCOUNTER_WORDS[ident] for table in (FIXED, CARDS)
                 for ident, spec in table.items()}
WARE_WORDS = {wid: name(f"ware.{wid}") for wid in WARES}
