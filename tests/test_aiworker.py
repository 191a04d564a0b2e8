"""The hard AI's worker process (bot/aiworker.py) and the table's hard seats: a search off the
event loop, and the smart policy whenever the worker fails, dies or answers late."""
from __future__ import annotations

import asyncio
import logging
import os
import signal
import time

import games
from bot.aiworker import AiWorker
from bot.clock import FakeClock
from bot.simulate import play
from bot.store import Store
from bot.table import TableService
from games.core import Rng, apply, decide, setup

from test_table_timers import Quiet, bell, drain  # noqa: F401 - the toy game's fixture

ITERATIONS = 2


def fixed_search(game_name, view, prompt, dice, budget_s):
    """The worker's job with a fixed number of samples, so the test knows its answer."""
    game = games.get(game_name)
    return game.hook("searcher")(game, view, prompt, Rng(dice), None, iterations=ITERATIONS)


def die(game_name, view, prompt, dice, budget_s):
    os.kill(os.getpid(), signal.SIGKILL)


def dawdle(game_name, view, prompt, dice, budget_s):
    time.sleep(2.0)
    return prompt.choices[-1].action


def nonsense(game_name, view, prompt, dice, budget_s):
    return "fly to the moon"


def castle_position():
    """A Castle state mid-game where the seat to move has a real choice, and that seat."""
    game = games.get("castle")
    log = []
    play("castle", 2, 6, max_actions=40, log=log)
    state = setup(game, 2, {}, 6)
    for seat, action, now in log[:30]:
        state = apply(game, state, seat, action, now).state
    seat = game.to_move(state)
    assert len(game.prompt(state, seat).choices) > 1
    return game, state, seat


def smart(game, state, seat, dice):
    return decide(game, state, seat, Rng(dice), "smart")


async def test_a_hard_decision_is_searched_in_the_worker_process():
    game, state, seat = castle_position()
    worker = AiWorker(workers=1, grace_s=30, job=fixed_search)  # a busy machine: no hurry
    try:
        first = await worker.decide(game, state, seat, Rng(5))  # the worker starts: smart plays
        assert first == smart(game, state, seat, 5) and worker.fallbacks == 1
        await worker.started()
        action = await worker.decide(game, state, seat, Rng(5))
        assert worker.fallbacks == 1
        assert action == fixed_search("castle", game.view(state, seat), game.prompt(state, seat), 5, 0.2)
    finally:
        await asyncio.to_thread(worker.close)


async def test_a_worker_that_dies_mid_decision_gives_way_to_smart(caplog):
    game, state, seat = castle_position()
    worker = AiWorker(workers=1, grace_s=30, job=die)  # the job's module loads first: no hurry
    try:
        await worker.decide(game, state, seat, Rng(5))
        await worker.started()
        dying = worker.pool
        with caplog.at_level(logging.WARNING, "gatekeeper.ai"):
            action = await worker.decide(game, state, seat, Rng(5))
        assert action == smart(game, state, seat, 5)
        assert any("the worker died" in r.getMessage() for r in caplog.records)
        assert worker.pool is not dying  # replaced at once
        worker.job, worker.grace_s = fixed_search, 30
        await worker.started()
        fallbacks = worker.fallbacks
        await worker.decide(game, state, seat, Rng(5))
        assert worker.fallbacks == fallbacks  # the new worker searches
    finally:
        await asyncio.to_thread(worker.close)


async def test_a_late_or_wrong_answer_gives_way_to_smart(caplog):
    game, state, seat = castle_position()
    worker = AiWorker(workers=1, budget_s=0.05, grace_s=0.1, job=dawdle)
    try:
        await worker.decide(game, state, seat, Rng(5))
        await worker.started()
        with caplog.at_level(logging.WARNING, "gatekeeper.ai"):
            began = time.perf_counter()
            late = await worker.decide(game, state, seat, Rng(5))
            waited = time.perf_counter() - began
        assert late == smart(game, state, seat, 5) and waited < 1.5
        assert any("no answer within" in r.getMessage() for r in caplog.records)
    finally:
        await asyncio.to_thread(worker.close, 0.5)
    wrong = AiWorker(workers=0, job=nonsense)
    assert await wrong.decide(game, state, seat, Rng(5)) == smart(game, state, seat, 5)
    assert wrong.fallbacks == 1


async def one_ai_move(tmp_path, job, add_ai: str):
    """A game of bell with one AI seat (added by the lobby op `add_ai`) whose AI worker runs
    `job` in-process, after the AI's first timer: the table, and the AI seat's view before."""
    clock = FakeClock()
    service = TableService(Store(tmp_path / "t.db"), Quiet(), clock, turn_timeout=600, ai_delay=1,
                           ai_worker=AiWorker(workers=0, job=job))
    table = await service.open_lobby("bell", 1, 10, 100, "Ana", seed=1)
    await service.lobby(table.id, 100, "Ana", add_ai)
    await service.lobby(table.id, 100, "Ana", "start")
    view = table.game.view(table.state, next(i for i, s in enumerate(table.seats) if s.ai))
    clock.advance(1)
    await drain(service)
    return table, view


async def test_a_hard_ai_seat_plays_through_the_worker(tmp_path, bell):  # noqa: F811
    """A hard seat's move is asked of the AI worker, with the seat's view and prompt (never the
    state), and lands through the table like any AI move."""
    asked = []

    def job(game_name, view, prompt, dice, budget_s):
        asked.append((game_name, view, [c.action for c in prompt.choices]))
        return "ready"

    table, view = await one_ai_move(tmp_path, job, "ai.hard")
    ai_seat = next(i for i, s in enumerate(table.seats) if s.ai)
    assert asked == [("bell", view, ["ready"])]
    assert table.state.data["ready"] == [ai_seat]


async def test_a_hard_seat_s_worker_starts_with_its_first_ai_timer_and_stops_with_the_service(tmp_path, bell):  # noqa: F811
    worker = AiWorker(workers=1)
    service = TableService(Store(tmp_path / "t.db"), Quiet(), FakeClock(), turn_timeout=600, ai_delay=1,
                           ai_worker=worker)
    try:
        table = await service.open_lobby("bell", 1, 10, 100, "Ana", seed=1)
        await service.lobby(table.id, 100, "Ana", "ai.hard")
        assert worker.pool is None  # a lobby sets no AI timer
        await service.lobby(table.id, 100, "Ana", "start")
        assert worker.pool is not None and worker.ready is not None
    finally:
        await service.close()
    assert worker.closed and worker.pool is None  # the service stops its worker with it


async def test_other_ai_seats_do_not_ask_the_worker(tmp_path, bell):  # noqa: F811
    def job(*args):
        raise AssertionError("only hard seats search")

    table, _ = await one_ai_move(tmp_path, job, "ai")
    assert len(table.state.data["ready"]) == 1
