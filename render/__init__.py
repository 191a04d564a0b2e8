"""Board images for Gatekeeper games: one module per game, shared helpers in `render.core`.

Each game plugin names its renderer (`Game.renderer`, "render.<game>:<function>"); the bot
dispatches on ``view["game"]`` (bot.rendering). Renderers are pure: no discord, no clock, no
network, no game engine, nothing but the view they are given.

Besides the game's public view, a board view carries ``view["names"]`` (the seats' names),
``view["lang"]`` (the language of the words drawn: `data.locales.text(view["lang"], id)`) and
may carry ``view["acting"]``, the bot's phrase for who acts ("Ana to move", "Ana and Bo to
answer"): every header shows it in place of its own "X to play" when it is there. Text goes
through `render.core`'s fitting (a string shrinks, then wraps, before it is shortened, and a
name keeps 12 characters); tests/test_render_text_fit.py checks every board with
`render.textrecord`.

May import: data.
"""
