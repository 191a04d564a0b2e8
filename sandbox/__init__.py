"""The real bot against the fake Discord: the browser sandbox (`gatekeeper sandbox`, and
`gatekeeper run` without a token), the harness that starts, stops and restarts the bot on the
fake, and the people who play through its buttons (the tests' and the benchmarks' players).

May import: bot, fakediscord, games, render, data.
"""
