"""Nothing a player does is lost: a click or a modal submit whose message was replaced meanwhile,
or whose first answer Discord refused, is still applied when legal, and the player hears back."""
from __future__ import annotations

import asyncio
import copy

import pytest

import games
from bot import livetable
from bot.clock import FakeClock
from games.atmosfear.engine import clean_fear
from games.core import Rng, decide
from tests.harness import InThreadHarness, Players, until

CALLBACK = r"^/interactions/\d+/[^/]+/callback$"
WENT_WRONG = "Something went wrong"


@pytest.fixture
async def world(fake_discord, tmp_path):
    clock = FakeClock()
    harness = InThreadHarness(fake_discord, tmp_path / "gk.db", clock=clock,
                              turn_timeout=100_000.0)
    await harness.start()
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
    yield clock, harness, Players(fake_discord, harness, names)
    await harness.stop()


def private_words(fake, players, name: str) -> list[str]:
    """Everything the bot told one person privately: ephemeral answers and DMs."""
    user = players.users[name]
    return [m.text() for m in fake.ephemerals(user, include_deleted=True)] \
        + [m.text() for m in fake.dms(user)]


async def replace_table(fake, players, table, who: str) -> None:
    """/status: a new live table is posted and the old one retires."""
    old = players.current_board(table)
    ix = await fake.slash(players.users[who], players.channel.id, "status")
    await ix.response()
    await until(lambda: players.current_board(table).id != old.id, what="a new table")
    await players.settle(table)


async def open_fear_box(fake, players, table, name: str):
    """The person clicks their "Take my turn" on the live table: the fear's text box opens."""
    seat = table.seat_of(players.users[name])
    board = players.current_board(table)
    button = next(cid for cid, label, _ in board.buttons()
                  if cid.split(":")[2] == str(seat) and label.lower().endswith("take my turn"))
    ix = await fake.click(players.users[name], board.id, button)
    assert (await ix.response()).type == 9
    return ix


@pytest.mark.parametrize("people, chapter_turns", [(3, livetable.CHAPTER_TURNS), (6, 1)])
async def test_fears_written_in_the_same_second_all_land(fake_discord, world, monkeypatch,
                                                         people, chapter_turns):
    """Every box is opened from the same table; then one fear lands (a hand-over), the table
    is posted anew (/status), and the rest are submitted at once: with chapter_turns 1 every
    retired table becomes a chapter in between. The last fear brings the Gatekeeper on."""
    monkeypatch.setattr(livetable, "CHAPTER_TURNS", chapter_turns)
    clock, harness, players = world
    names = list(players.users)[:people]
    table = await players.start_game(names[0], names[1:], game="atmosfear")
    boxes = {name: await open_fear_box(fake_discord, players, table, name) for name in names}
    fears = {name: f"{name} fears the dark under stair {n}" for n, name in enumerate(names)}
    first = names[0]
    await fake_discord.submit_modal(players.users[first], boxes.pop(first),
                                    values={"text": fears[first]})
    first_seat = table.seat_of(players.users[first])
    await until(lambda: table.state.data["fears"][first_seat] is not None, what="the first fear")
    await players.settle(table)
    await replace_table(fake_discord, players, table, names[-1])
    submits = await asyncio.gather(*(
        fake_discord.submit_modal(players.users[name], box, values={"text": fears[name]})
        for name, box in boxes.items()))
    await asyncio.gather(*(ix.response() for ix in submits))
    await until(lambda: all(f is not None for f in table.state.data["fears"][:people]),
                what="every fear")
    await players.settle(table)
    assert table.state.data["phase"] == "play"
    for name in names:
        seat = table.seat_of(players.users[name])
        assert table.state.data["fears"][seat] == clean_fear(fears[name])
        told = private_words(fake_discord, players, name)
        assert not any(WENT_WRONG in text for text in told), told
        assert any("done" in text for text in told), told
    assert all(ix.errors == [] for ix in submits)


@pytest.mark.parametrize("refusal", [10008, 10062, 503, "drop-after"])
@pytest.mark.parametrize("route", ["table button", "panel"])
async def test_a_move_counts_whatever_discord_answers_first(fake_discord, world, refusal, route):
    """The bot's first answer to the click that makes a move fails: the move is applied all the
    same, and the player hears that it counted (privately, or by DM once the click expired)."""
    clock, harness, players = world
    table = await players.start_game("Ana", ["Bo"], game="kingdom" if route == "table button"
                                     else "castle")
    mover = players.mover(table)
    seat, user = table.seat_of(players.users[mover]), players.users[mover]
    action = decide(table.game, table.state, seat, Rng(1), "smart")
    choice = next(c for c in table.prompt(seat).choices if c.action == action)  # as the buttons word it
    version = table.version
    if route == "panel":
        panel = await players.panel_of(
            await players.open_panel(user, players.current_board(table), seat))
        # the panel's last click makes the move: the steps before it go through
        fake_discord.faults.add("POST", CALLBACK, outcomes=(refusal,), skip=len(choice.path) - 1)
        await players.click_through(table, user, panel, choice, mover, last_answered=refusal != 10062)
        move_click = max(fake_discord.interactions.values(), key=lambda ix: ix.id)
    else:
        fake_discord.faults.add("POST", CALLBACK, outcomes=(refusal,))
        board = players.current_board(table)
        button = next(cid for cid, label, _ in board.buttons() if label == choice.label)
        move_click = await fake_discord.click(user, board.id, button)
    await until(lambda: table.version > version, what="the move to count")
    await players.settle(table)
    assert fake_discord.faults.injected[-1][2] == refusal
    told = private_words(fake_discord, players, mover)
    assert not any(WENT_WRONG in text for text in told)
    if move_click.callback is None or move_click.callback.type != 6:
        # its silent update did not land: the player is told the move counted
        assert any("✅" in text for text in told), told
    if refusal == 10062:
        assert move_click.callback is None
        assert any("✅" in m.text() for m in fake_discord.dms(user))


@pytest.mark.parametrize("refusal", [10008, 10062, 503])
async def test_a_fear_counts_whatever_discord_answers_first(fake_discord, world, refusal):
    clock, harness, players = world
    table = await players.start_game("Ana", ["Bo", "Cy"], game="atmosfear")
    box = await open_fear_box(fake_discord, players, table, "Bo")
    fake_discord.faults.add("POST", CALLBACK, outcomes=(refusal,))
    await fake_discord.submit_modal(players.users["Bo"], box, values={"text": "the cellar"})
    seat = table.seat_of(players.users["Bo"])
    await until(lambda: table.state.data["fears"][seat] is not None, what="Bo's fear")
    await players.settle(table)
    assert table.state.data["fears"][seat] == "the cellar"
    assert any("done" in text for text in private_words(fake_discord, players, "Bo"))


async def test_a_fear_that_cannot_land_is_written_back(fake_discord, world):
    """A submit the game refuses (the box was opened before the game was ended) says why and
    gives the player their words back."""
    clock, harness, players = world
    table = await players.start_game("Ana", ["Bo", "Cy"], game="atmosfear")
    box = await open_fear_box(fake_discord, players, table, "Cy")
    ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "end")
    await ix.response()
    await until(lambda: table.status != "running", what="the end")
    await players.settle(table)
    submit = await fake_discord.submit_modal(players.users["Cy"], box,
                                             values={"text": "spiders in the bath"})
    await submit.response()
    await players.settle(table)
    told = private_words(fake_discord, players, "Cy")
    assert any("spiders in the bath" in text and "not lost" in text for text in told), told


@pytest.mark.parametrize("game_name", [g.name for g in games.all_games()])
async def test_every_click_on_a_replaced_table_still_counts(fake_discord, world, game_name):
    """Before every move a player makes, the live table is posted anew (/status) and the
    player clicks the table they still see, which is gone: the move is applied as if they had
    clicked the new one, through its button, its panel or its text box."""
    clock, harness, players = world
    game = games.get(game_name)
    names = list(players.users)[:max(game.min_seats, 3)]
    table = await players.start_game(names[0], names[1:], game=game_name)
    moves = 0
    for _ in range(400):
        if table.status != "running" or moves >= 40:
            break
        waiting = [s for s, p in enumerate(table.prompts) if p is not None]
        if not waiting:
            clock.advance(4.0)
            await players.settle(table)
            continue
        seat = waiting[0]
        who = players.name_of(table.seats[seat].user_id)
        seen = copy.deepcopy(players.current_board(table))  # what the player's screen shows
        await replace_table(fake_discord, players, table, who)
        assert players.current_board(table).id != seen.id
        action = decide(table.game, table.state, seat, Rng(table.state.version + 11), "smart")
        version = table.version
        await players.click_choice(table, seat, action, seen, stale_client=True)
        await until(lambda: table.version > version, what=f"{who}'s {action!r} to count")
        await players.settle(table)
        assert not any(WENT_WRONG in t for t in private_words(fake_discord, players, who))
        moves += 1
        clock.advance(4.0)
        await players.settle(table)
    assert moves == 40 or (table.status != "running" and moves > 0)
    if game_name == "atmosfear":  # the Gatekeeper took the table in between, too
        assert any("THE GATEKEEPER" in m.text() for m in players.every_table())


def live_buttons(message) -> list[str]:
    return [cid for cid, _, disabled in message.buttons() if cid and not disabled] \
        + [cid for cid, _ in message.selects()]


async def test_a_panel_closes_when_its_turn_passes_or_the_game_ends(fake_discord, world):
    """A panel left open while the turn passes another way (the deadline plays it) is closed;
    one open when the game ends says so. Neither keeps a live button. A move typed while the
    panel is open takes its place: still one private message for the turn."""
    clock, harness, players = world
    table = await players.start_game("Ana", ["Bo"])

    async def open_mover_panel():
        mover = players.mover(table)
        seat, user = table.seat_of(players.users[mover]), players.users[mover]
        panel = await players.panel_of(
            await players.open_panel(user, players.current_board(table), seat))
        assert live_buttons(fake_discord.messages[panel.id])
        return seat, user, panel

    seat, user, panel = await open_mover_panel()
    clock.advance(100_001.0)  # the turn's deadline: it is played for them
    await until(lambda: table.prompts[seat] is None, what="the turn to pass")
    await players.settle(table)
    closed = fake_discord.messages[panel.id]
    assert "turn is over" in closed.text() and not live_buttons(closed)

    seat, user, panel = await open_mover_panel()
    before = [m.id for m in fake_discord.ephemerals(user)]
    while table.prompts[seat] is not None:  # the whole turn typed (a card, then a move)
        action = decide(table.game, table.state, seat, Rng(table.version), "smart")
        version = table.version
        ix = await fake_discord.slash(user, players.channel.id, "move", {"action": action})
        await ix.response()
        await until(lambda: table.version > version, what=f"{action!r}")
        await players.settle(table)
    added = [m for m in fake_discord.ephemerals(user) if m.id not in before]
    assert fake_discord.messages[panel.id].deleted and len(added) == 1, added
    assert added[0].text().startswith("Done")

    seat, user, panel = await open_mover_panel()
    ix = await fake_discord.slash(players.users["Ana"], players.channel.id, "end")
    await ix.response()
    await until(lambda: table.status != "running", what="the end")
    await players.settle(table)
    closed = fake_discord.messages[panel.id]
    assert "game is over" in closed.text() and not live_buttons(closed)


async def test_a_second_take_my_turn_replaces_the_first_panel(fake_discord, world):
    clock, harness, players = world
    table = await players.start_game("Ana", ["Bo"])
    mover = players.mover(table)
    seat, user = table.seat_of(players.users[mover]), players.users[mover]
    first = await players.panel_of(
        await players.open_panel(user, players.current_board(table), seat))
    second = await players.panel_of(
        await players.open_panel(user, players.current_board(table), seat))
    await players.settle(table)
    assert fake_discord.messages[first.id].deleted and not fake_discord.messages[second.id].deleted
    assert [m.id for m in fake_discord.ephemerals(user)] == [second.id]


async def test_a_turn_leaves_at_most_one_private_message_per_player(fake_discord, world):
    """A castle game played through the panels: one panel a turn, changed in place (a card,
    then its door, then an Extra Turn's next move), no receipt beside it."""
    clock, harness, players = world
    table = await players.start_game("Ana", ["Bo"])
    turns = {name: 0 for name in ("Ana", "Bo")}
    for _ in range(30):
        if table.status != "running":
            break
        mover = players.mover(table)
        turn = table.state.turn
        while table.status == "running" and players.mover(table) == mover \
                and table.state.turn == turn:
            await players.play_by_buttons(table)
        turns[mover] += 1
    for name, count in turns.items():
        kept = fake_discord.ephemerals(players.users[name])
        assert 0 < len(kept) <= count, (name, count, [m.text()[:60] for m in kept])
