"""The fake Discord's gateway keeps discord.py's heartbeat honest: HELLO names Discord's interval,
every heartbeat is acknowledged, and an idle bot never reads its own heartbeats as a backlog
("Can't keep up, shard ID 0 websocket is 41.3s behind", every few minutes in the sandbox)."""
from __future__ import annotations

import asyncio
import json
import logging

import discord.gateway

from fakediscord.server import OP_HEARTBEAT, OP_HEARTBEAT_ACK, OP_HELLO
from tests.harness import InThreadHarness

DISCORD_HEARTBEAT_MS = 41250


async def test_hello_names_discords_interval_and_a_heartbeat_is_acknowledged_soon(fake_discord):
    import aiohttp
    loop = asyncio.get_running_loop()
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(fake_discord.gateway_url) as ws:
            hello = json.loads((await ws.receive()).data)
            assert hello["op"] == OP_HELLO
            assert hello["d"]["heartbeat_interval"] == DISCORD_HEARTBEAT_MS
            for _ in range(3):
                sent = loop.time()
                await ws.send_str(json.dumps({"op": OP_HEARTBEAT, "d": None}))
                ack = json.loads((await asyncio.wait_for(ws.receive(), 2)).data)
                assert ack["op"] == OP_HEARTBEAT_ACK
                assert loop.time() - sent < 1.0


async def test_an_idle_bot_measures_each_heartbeat_against_itself(fake_discord, tmp_path,
                                                                  monkeypatch, caplog):
    """discord.py's keep-alive thread records when a heartbeat went out once it runs again; on
    a busy machine that is some milliseconds later (20 here, made certain by holding the send
    back). Each latency measured must still be that heartbeat's own round trip: one as long as
    the interval means the ACK was matched with the heartbeat before, which at Discord's 41 s
    interval is the "Can't keep up" warning. A short interval puts several heartbeats in a
    couple of seconds."""
    interval = 0.5
    fake_discord.heartbeat_interval = int(interval * 1000)
    latencies: list[float] = []
    acknowledge = discord.gateway.KeepAliveHandler.ack
    send_heartbeat = discord.gateway.DiscordWebSocket.send_heartbeat

    def recording_ack(handler: discord.gateway.KeepAliveHandler) -> None:
        acknowledge(handler)
        latencies.append(handler.latency)

    async def busy_send_heartbeat(ws: discord.gateway.DiscordWebSocket, data) -> None:
        await send_heartbeat(ws, data)
        await asyncio.sleep(0.02)  # the thread is told the heartbeat went out this much later

    monkeypatch.setattr(discord.gateway.KeepAliveHandler, "ack", recording_ack)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "send_heartbeat", busy_send_heartbeat)
    caplog.set_level(logging.WARNING, logger="discord")
    harness = InThreadHarness(fake_discord, tmp_path / "bot.db")
    await harness.start()
    try:
        await asyncio.sleep(5 * interval + 0.2)  # idle
    finally:
        await harness.stop()
    assert len(latencies) >= 5
    assert max(latencies) < interval / 2, latencies
    warnings = [r.getMessage() for r in caplog.records if r.name.startswith("discord.gateway")]
    assert not [w for w in warnings if "behind" in w or "blocked" in w], warnings
