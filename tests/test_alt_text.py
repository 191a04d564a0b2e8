"""Alt text: every board the bot posts says in words what the picture shows, for a screen reader.

Along AI-played games of every game, several seeds and the smallest and largest tables, the text
for the public board view fits Discord's 1024 characters, names every seat, says who acts now,
names no place by an internal id, and holds nothing hidden. Hidden is checked twice: the text is
the same whether the describer is handed the spectator's view or a seat's own (so nothing only a
seat sees can reach it), and no secret string of a seat's view or private text appears in it,
less those the public view itself holds (the soak's way of telling a secret, bench.soak)
and the names the board's data gives its places.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any, Iterator

import pytest

import games
from bench.soak import private_strings
from bot.rendering import alt_text, board_view, speaker_alt_text
from bot.simulate import play
from data import load_toml
from data.locales import DEFAULT, LANGUAGES
from games.core import Game, State, advance, setup
from render.replay import describe_replay
from render.words import LIMIT, clamp, fit

BUILT_IN = ["atmosfear", "castle", "dontgo", "firetop", "kingdom"]
NAMES = ["Ana Quill", "Bo Marsh", "Cy Fenwick", "Dee Ashby", "Eve Tarrow", "Fay Lindqvist"]
SEEDS = (3, 17, 29)
SAMPLES = 24  # states looked at along each game


BOARD_FILES = {"atmosfear": ["board.toml"], "castle": ["castle.toml"], "dontgo": ["dontgo.toml"],
               "firetop": ["board.toml"], "kingdom": ["board.toml", "hazards.toml"]}


def board_names(name: str) -> list[str]:
    """The names the game's board data gives its places (and Don't Go In There its cards): the
    public words of the picture, longest first."""
    found: set[str] = set()

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for inner, item in value.items():
                walk(item, "locations" if key == "locations" else inner)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif isinstance(value, str) and key in ("name", "label", "world", "locations"):
            found.add(value)
    for file in BOARD_FILES[name]:
        walk(load_toml(name, file))
    return sorted(found, key=len, reverse=True)


def internal_ids(name: str) -> set[str]:
    """The ids the game's data gives places and things, which only code may use, less those that
    are words of the board's own names ("dungeon" of "the Demon King's dungeon"): matched as
    whole words, case and all (the Kingdom's `gate` is an id, "the Gate" a name)."""
    if name == "atmosfear":
        board = load_toml("atmosfear", "board.toml")["board"]
        ids = ({stone["id"] for stone in board["outer"]} | set(board["inner"])
               | {step for path in board["radials"] for step in path} | {board["well"]})
    elif name == "kingdom":
        board, hazards = load_toml("kingdom", "board.toml"), load_toml("kingdom", "hazards.toml")
        ids = set(board["heart"]["spaces"]) | set(board["spots"]) | set(board["locations"])
        for panel in board["panels"].values():
            ids |= set(panel["in"]["spaces"]) | set(panel["out"]["spaces"]) | {panel["pool"]}
        ids |= set(board["hazards"]) | set(hazards)
    elif name == "firetop":
        board = load_toml("firetop", "board.toml")
        treasures = load_toml("firetop", "treasures.toml")
        ids = set(board["rooms"]) | {c["id"] for c in board["crossing"]} | set(treasures["cards"])
    elif name == "dontgo":
        ids = set(load_toml("dontgo", "dontgo.toml")["types"])
    else:
        castle = load_toml("castle", "castle.toml")  # its places are the coordinates on the board
        ids = {face for face in castle["tiles"] if "_" in face} | {f"key-{c}" for c in castle["door_colours"]}
    words = " ".join(board_names(name))
    return {i for i in ids if not re.search(rf"\b{re.escape(i)}\b", words, re.I)}


def states(name: str, seats: int, seed: int) -> Iterator[State]:
    """About SAMPLES states spread along one AI-played game, its start and end included."""
    game = games.get(name)
    log: list[tuple[int, str, float]] = []
    play(name, seats, seed=seed, log=log)
    every = max(1, len(log) // SAMPLES)
    state = setup(game, seats, {}, seed)
    yield state
    for index, (seat, action, now) in enumerate(log, 1):
        advance(game, state, seat, action, now)
        if index % every == 0 or index == len(log):
            yield state


def seat_view(game: Game, state: State, seat: int, lang: str = DEFAULT) -> dict[str, Any]:
    """What `board_view` would hand the describer if it were drawn from `seat`'s own view."""
    view = game.view(state, seat)
    for key in game.image_ignores:
        view.pop(key, None)
    view["names"] = NAMES[: state.seats]
    view["lang"] = lang
    return view


def leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    else:
        yield value


def secrets(game: Game, state: State, seat: int, public: dict[str, Any],
            lang: str = DEFAULT) -> set[str]:
    """The strings only `seat` may read: those of its view the spectator's view lacks (a fear, a
    key rack, a hand's cards) and the bold parts of its private text, less any the public view
    itself holds (a Harbinger's name is on the board for all to see)."""
    own = game.view(state, seat)
    # the private text's bold parts in English: another language's declines the game's public
    # terms there too ("den schwarzen Schlüssel"), which its alt text rightly uses
    found = private_strings(game, state, seat) if lang == DEFAULT else set()
    for key, value in own.items():
        if public.get(key) != value:
            found |= {str(leaf) for leaf in leaves(value) if isinstance(leaf, str)}
    told = json.dumps(public)
    return {s for s in found if len(s) >= 4 and not s.isdigit() and s not in told}


def without(text: str, terms: list[str]) -> str:
    """`text` with the board's own names blanked out: "the Key Location" names a kind of place,
    and says nothing of who holds the Key."""
    for term in terms:
        text = text.replace(term, "…")
    return text


def acting_seats(game: Game, state: State) -> list[int]:
    """The seats that may act now, for a game in a phase without a turn (several at once)."""
    return [seat for seat in range(state.seats) if game.prompt(state, seat) is not None]


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_board_is_described_within_the_limit_naming_every_seat_and_who_acts(name):
    game = games.get(name)
    ids = internal_ids(name)
    id_pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(ids, key=len, reverse=True))) + r")\b")
    looked = 0
    for seats in (game.min_seats, game.max_seats):
        for seed in SEEDS:
            names = NAMES[:seats]
            for state in states(name, seats, seed):
                view = board_view(game, state, names)
                text = alt_text(game, view, "en")
                where = (seats, seed, state.version)
                assert 0 < len(text) <= LIMIT, where
                assert all(player in text for player in names), (where, text)
                assert id_pattern.search(text) is None, (where, id_pattern.search(text), text)
                first_sentences = " ".join(re.split(r"(?<=[.!?]) ", text)[:2])
                acting = acting_seats(game, state)
                if isinstance(view.get("current"), int):  # the turn's owner, as the image's header
                    acting.append(view["current"])
                if acting and not state.over:
                    assert any(names[s] in first_sentences for s in acting), (where, acting, text)
                if state.over:
                    assert "Game over" in first_sentences, (where, text)
                looked += 1
    assert looked >= 2 * len(SEEDS) * 2


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", BUILT_IN)
def test_alt_text_reads_nothing_a_seat_alone_sees_and_leaks_no_secret(name, lang):
    """In every language: the same words whichever seat's view they are drawn from, and none
    of a seat's secrets (its view's own strings; in English also its private text's bold
    parts)."""
    game = games.get(name)
    terms = board_names(name)
    checked = 0
    for seats in (game.min_seats, game.max_seats):
        for seed in SEEDS:
            for state in states(name, seats, seed):
                public = board_view(game, state, NAMES[:seats], lang=lang)
                text = alt_text(game, public, lang)
                unnamed = without(text, terms)
                for seat in range(seats):
                    assert alt_text(game, seat_view(game, state, seat, lang), lang) == text, \
                        (seats, seed, seat)
                    hidden = secrets(game, state, seat, public, lang)
                    assert [s for s in hidden if s in unnamed] == [], (seats, seed, seat, text)
                    checked += len(hidden)
    assert checked > 0 or lang != DEFAULT  # the games do hide something, and it was looked for


def test_the_secret_check_finds_a_fear_copied_into_the_text():
    """The check above is not blind: an Atmosfear fear (secret until read out) is found."""
    game = games.get("atmosfear")
    state = play("atmosfear", 3, seed=3, max_actions=40)
    public = board_view(game, state, NAMES[:3])
    fear = game.view(state, 0)["fear"]["text"]
    assert fear in secrets(game, state, 0, public)
    assert fear not in alt_text(game, public, "en")


def test_the_bot_s_own_words_for_who_acts_come_first_but_never_hide_the_result():
    game = games.get("castle")
    state = play("castle", 2, seed=5, max_actions=6)
    view = board_view(game, state, NAMES[:2]) | {"acting": "Bo Marsh and Ana Quill must answer"}
    assert alt_text(game, view, "en").split(". ")[1] == "Bo Marsh and Ana Quill must answer"
    over = play("castle", 2, seed=5)
    final = board_view(game, over, NAMES[:2]) | {"acting": "Ana Quill to move"}
    assert over.over and "Game over: " in alt_text(game, final, "en") and "to move" not in alt_text(game, final, "en")


def test_long_descriptions_stop_at_a_whole_sentence():
    sentences = [f"Sentence number {n} says a little about the board." for n in range(40)]
    text = fit(sentences)
    assert len(text) <= LIMIT and text.endswith("board.")
    assert text == " ".join(sentences[: text.count("Sentence")])
    assert len(fit(sentences[:2] + ["x" * 2000])) == len(" ".join(sentences[:2]))
    long_name = "A " * 700
    assert len(fit([long_name])) <= LIMIT and fit([long_name]).endswith("…")
    assert clamp("One. Two! Three?", limit=9) == "One. Two!"


def test_a_game_without_a_describer_gets_its_title_who_acts_and_the_players(keypile):
    assert keypile.describer is None
    state = play("keypile", 2, seed=4, max_actions=3)
    view = board_view(keypile, state, NAMES[:2])
    text = alt_text(keypile, view, "en")
    current = NAMES[keypile.to_move(state)]
    assert text == f"{keypile.title} board. {current} to play. Players: Ana Quill and Bo Marsh."


def test_the_gatekeeper_s_picture_is_described_with_his_line():
    atmosfear = games.get("atmosfear")
    text = speaker_alt_text(atmosfear, "Who dares   wake me?", "en")
    assert text.startswith("The Gatekeeper, a hooded figure")
    assert text.endswith("speaking: Who dares wake me?")
    assert len(speaker_alt_text(atmosfear, "Beware. " * 300, "en")) <= LIMIT


def test_a_speaker_without_a_describer_is_named_with_the_line(keypile):
    assert speaker_alt_text(keypile, "Hello  there.", "en") == "A character, speaking: Hello there."


def test_a_replay_is_described_by_game_players_moves_and_winner():
    text = describe_replay("Keys to the Castle", ["Ana Quill", "Bo Marsh"], 42, ["Bo Marsh"])
    assert text == ("Animated replay of Keys to the Castle between Ana Quill and Bo Marsh: the set-up, "
                    "42 moves, then the final board. Bo Marsh won.")
    assert describe_replay("Firetop Mountain", ["Ana Quill"], 1, []).endswith("1 move, then the final board. "
                                                                           "Nobody won.")
    how = describe_replay("Keys to the Castle", ["Ana Quill", "Bo Marsh"], 42, ["Bo Marsh"],
                          "reached the far side of the castle at C8")
    assert how.endswith("Bo Marsh won: reached the far side of the castle at C8.")


def test_describing_a_board_loads_no_pillow():
    """The bot describes boards in its own process; only the render worker needs Pillow."""
    code = ("import sys, games\n"
            "for game in games.all_games():\n"
            "    game.hook('describer')\n"
            "assert 'PIL' not in sys.modules, sorted(m for m in sys.modules if m.startswith('PIL'))\n")
    subprocess.run([sys.executable, "-c", code], check=True)
