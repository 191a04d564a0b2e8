"""Board images for Gatekeeper games: one module per game, shared helpers in `render.core`.

Each game plugin names its renderer (`Game.renderer`, "render.<game>:<function>"); the bot
dispatches on ``view["game"]`` (bot.rendering). Renderers are pure: no discord, no clock, no
network, no game engine, nothing but the view they are given.
"""
