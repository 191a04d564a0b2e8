"""The benchmarks behind docs/performance.md (`gatekeeper bench`, `python -m bench.<part>`): each
part measures the bot, the engines or the renderers and rewrites its own section of the doc.

May import: bot, fakediscord, sandbox, games, render, data.
"""
