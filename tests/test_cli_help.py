"""`gatekeeper --help` is read in a terminal: plain text, no Markdown marks."""
from __future__ import annotations

import pytest

from bot.cli import main

COMMANDS = ["run", "sandbox", "health", "simulate", "render", "replay", "bench"]


@pytest.mark.parametrize("argv", [["--help"], *[[command, "--help"] for command in COMMANDS]])
def test_help_is_plain_text(argv, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith("usage: gatekeeper")
    assert "`" not in text and "*" not in text and "__" not in text
    if argv == ["--help"]:
        assert all(command in text for command in COMMANDS)
