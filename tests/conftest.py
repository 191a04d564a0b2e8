"""Fixtures for every test: the fake Discord, and Key Pile (a game from outside the project)."""
from pathlib import Path

import pytest

import games
from tests.fakediscord.fixtures import fake_discord  # noqa: F401  (the fixture, for every test)


PLUGINS = Path(__file__).parent / "plugins"


def advertise(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, entry_points: str) -> None:
    """Make an installed-looking distribution whose entry points are `entry_points`."""
    info = tmp_path / "site" / "gk_keypile-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gk-keypile\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[gatekeeper.games]\n{entry_points}\n")
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    games.reload()


@pytest.fixture
def keypile(tmp_path, monkeypatch):
    advertise(tmp_path, monkeypatch, "keypile = gk_keypile:GAME")
    yield games.get("keypile")
    games.reload()  # rediscovered without it once monkeypatch restores sys.path
