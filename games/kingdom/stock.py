"""Cards and what changes hands: equipment, Treasure holders, monsters, the lost piles.

The numbers and names are data (data/kingdom/cards.toml). Lost equipment lies face up with its
owner's seat (the Wizard gives each adventurer back their own); lost Treasure holders lie face
down and are shuffled whenever one is added, so nobody can tell which is which.
"""
from __future__ import annotations

from typing import Any

from data import load_toml
from data.locales import Msg
from games.core import Event, Rng
from games.core.typed import squash

from .words import ITEM, MONSTER, THE_ITEM, TREASURE, say

CARDS: dict[str, Any] = load_toml("kingdom", "cards.toml")
DIE: int = CARDS["die"]
SETUP: dict[str, Any] = CARDS["setup"]
ITEMS: dict[str, str] = {k: v[0] for k, v in CARDS["equipment"].items()}
ITEM_COPIES: dict[str, int] = {k: int(v[1]) for k, v in CARDS["equipment"].items()}
TREASURES: dict[str, str] = dict(CARDS["treasures"])
COBRA = "cobra"
TREASURE_NAMES: dict[str, str] = {**TREASURES, COBRA: CARDS["cobra"]["label"]}
MONSTERS: dict[str, dict[str, Any]] = CARDS["monsters"]
# Equipment typed as players see it, compared squashed: its name ("grappling hook"), its key,
# a plural, or "grappling" alone.
ITEM_ALIASES = ({squash(name): item for item, name in ITEMS.items()} | {item: item for item in ITEMS}
                | {item + "s": item for item in ITEMS} | {"axes": "axe", "grappling": "hook"})
ARTICLES = ("the", "a", "an", "my", "your")


def item_named(words: list[str]) -> str | None:
    """The equipment `words` name ("the Grappling Hook", "rope"), or None."""
    if words and words[0] in ARTICLES:
        words = words[1:]
    return ITEM_ALIASES.get(squash(" ".join(words)))

if "key" not in TREASURES:
    raise ValueError("cards.toml: the Key must be one of the Treasures")
for _m in MONSTERS.values():
    for _item in _m["fears"]:
        if _item not in ITEMS:
            raise ValueError(f"cards.toml: monster {_m['name']} fears unknown item {_item}")


def p(seat: int) -> str:
    return "{p%d}" % seat


def items_words(items: list[str]) -> tuple[Msg, ...]:
    """Equipment as a list names it: "Rope ×2, Net" (each its own item, so the reader's
    language writes the list)."""
    counts: dict[str, int] = {}
    for it in items:
        counts[it] = counts.get(it, 0) + 1
    return tuple(ITEM[i] if n == 1 else say("item.copies", item=ITEM[i], n=n)
                 for i, n in sorted(counts.items()))


def fresh_equipment_deck(rng: Rng) -> list[str]:
    deck = [item for item, n in ITEM_COPIES.items() for _ in range(n)]
    rng.shuffle(deck)
    return deck


def draw_equipment(d: dict[str, Any], seat: int, events: list[Event]) -> str | None:
    """`seat` stops at a supply cache: the top Equipment card, if any is left."""
    if not d["equip_deck"]:
        events.append(Event(say("event.cache_empty", who=p(seat))))
        return None
    item = d["equip_deck"].pop()
    d["players"][seat]["equip"].append(item)
    events.append(Event(say("event.cache_draw", who=p(seat), item=THE_ITEM[item])))
    return item


def lose_item(d: dict[str, Any], seat: int, item: str, events: list[Event],
              said: str = "game.kingdom.event.loses") -> bool:
    """Move one `item` from `seat` to the lost equipment pile (face up, remembering the owner);
    `said`: the message telling how ("{who} loses {item}.", a hazard's own way)."""
    equip = d["players"][seat]["equip"]
    if item not in equip:
        return False
    equip.remove(item)
    d["lost_equip"].append({"item": item, "owner": seat})
    events.append(Event(Msg(said, who=p(seat), item=THE_ITEM[item])))
    return True


def add_lost_treasure(d: dict[str, Any], tid: str, rng: Rng) -> None:
    """A holder goes onto the lost pile face down, shuffled in among the others."""
    pile = d["lost_treasure"]
    pile.insert(rng.below(len(pile) + 1), tid)


def lose_treasure(d: dict[str, Any], seat: int, rng: Rng, events: list[Event], every: bool = False) -> int:
    """`seat` loses one Treasure holder (drawn blind) or all of them to the lost pile."""
    hand = d["players"][seat]["hand"]
    if not hand:
        return 0
    lost = list(hand) if every else [hand[rng.below(len(hand))]]
    for tid in lost:
        hand.remove(tid)
        add_lost_treasure(d, tid, rng)
        events.append(Event(say("private.lost", treasure=TREASURE[tid]), to=(seat,), kind="private"))
    n = len(lost)
    events.append(Event(say("event.lose_holders", who=p(seat), count=n)))
    forget_holder(d, seat)
    return n


def forget_holder(d: dict[str, Any], seat: int) -> None:
    """Whoever knew that `seat` held the Key can no longer be sure."""
    for knows in d["knows"]:
        if knows.get("key") == seat:
            knows["key"] = None


def take_holder(d: dict[str, Any], seat: int, tid: str, rng: Rng, events: list[Event]) -> None:
    """`seat` opens a holder just taken: a Treasure joins their hand; the Cobra bites."""
    if tid == COBRA:
        events.append(Event(say("event.cobra", who=p(seat))))
        add_lost_treasure(d, COBRA, rng)
        equip = d["players"][seat]["equip"]
        if equip:
            lose_item(d, seat, equip[rng.below(len(equip))], events, said="game.kingdom.event.drops")
        return
    d["players"][seat]["hand"].append(tid)
    events.append(Event(say("private.inside", treasure=TREASURE[tid]), to=(seat,), kind="private"))


def can_escape(player: dict[str, Any]) -> bool:
    hand = player["hand"]
    return "key" in hand and any(t != "key" for t in hand)


def draw_monster(d: dict[str, Any], rng: Rng) -> str:
    if not d["monster_deck"]:
        d["monster_deck"] = list(d["monster_discard"])
        d["monster_discard"] = []
        rng.shuffle(d["monster_deck"])
    return d["monster_deck"].pop()


def monster_text(mid: str) -> Msg:
    """A Monster card: "Ogre (strength 6; fears Sword +2, Net +3)"."""
    m = MONSTERS[mid]
    fears = tuple(say("monster.fear", item=ITEM[i], bonus=b) for i, b in m["fears"].items())
    return say("monster.card", monster=MONSTER[mid], strength=m["strength"], fears=fears)
