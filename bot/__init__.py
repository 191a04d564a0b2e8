"""The Discord layer: the only package that talks to Discord, and all that runs in production
(`gatekeeper run`): commands, buttons, the live table, DMs, the store, timers.

May import: games, render, data; bot.cli also sandbox, bench.
"""
