"""A fresh install from a wheel, outside the clone, runs every command.

Builds the wheel from a copy of the working tree (`pip wheel --no-deps`), installs it into a new
venv (its dependencies come from the package index as usual; pip's cache makes that quick) and
runs the installed `gatekeeper` from a directory that has nothing of the clone in it.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.test_sandbox_cli import fetch, running_sandbox

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 300  # a guard against a hung command, not a measurement


class Installed:
    def __init__(self, root: Path, work: Path) -> None:
        self.root = root
        self.work = work
        self.bin = root / "venv" / "bin"
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "DISCORD_TOKEN")
               and not k.startswith("GATEKEEPER_")}
        self.env = {**env, "GATEKEEPER_DB": str(work / "var" / "gatekeeper.db")}

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, cwd=self.work, env=self.env, capture_output=True, text=True,
                              timeout=TIMEOUT)

    def gatekeeper(self, *args: str) -> subprocess.CompletedProcess[str]:
        return self.run(str(self.bin / "gatekeeper"), *args)

    def python(self, code: str) -> subprocess.CompletedProcess[str]:
        return self.run(str(self.bin / "python"), "-c", code)


def check(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    root = tmp_path_factory.mktemp("install")
    # Build from a copy: setuptools builds in the source tree (build/, *.egg-info), and stale
    # files there could end up in the wheel.
    source = root / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", "var", ".pytest_cache",
        ".hypothesis"))
    wheels = root / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                            "--wheel-dir", str(wheels), str(source)],
                           capture_output=True, text=True, timeout=TIMEOUT)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = wheels.glob("gatekeeper-*.whl")
    shutil.rmtree(source)  # from here on, only the wheel exists
    # The suite's own pip installs into the new venv (`--python`): a pip of its own (ensurepip)
    # would cost seconds and test nothing.
    venv.create(root / "venv")
    work = root / "elsewhere"
    work.mkdir()
    result = Installed(root, work)
    check(result.run(sys.executable, "-m", "pip", "--python", str(result.bin / "python"),
                     "install", "-q", str(wheel)))
    return result


def test_the_installed_modules_come_from_the_venv(installed: Installed):
    out = check(installed.python(
        "import bot, bench.run, sandbox.harness, data, games, render\n"
        "for m in (bot, bench.run, sandbox.harness, data, games, render):\n"
        "    print(m.__file__)\n"
        "import importlib.util\n"
        "print('tests importable:', importlib.util.find_spec('tests') is not None)"))
    *files, tests_line = out.splitlines()
    site = installed.root / "venv" / "lib"
    assert len(files) == 6
    for path in files:
        assert Path(path).is_relative_to(site), path
        assert not Path(path).is_relative_to(ROOT), path
    assert tests_line == "tests importable: False"


def test_run_without_a_token_serves_the_sandbox_page_from_the_package(installed: Installed):
    with running_sandbox([str(installed.bin / "gatekeeper"), "run"], installed.work,
                         installed.env) as (url, banner):
        assert "Games are kept in var/sandbox.db" in banner
        assert "Local sandbox" in fetch(url)
        assert "function markdown" in fetch(url + "static/app.js")
        assert "--blurple" in fetch(url + "static/style.css")
    assert (installed.work / "var" / "sandbox.db").exists()


def test_simulate(installed: Installed):
    out = check(installed.gatekeeper("simulate", "castle", "--games", "2"))
    assert out.startswith("castle: 2/2 games finished"), out


def test_render_writes_a_png_with_the_shipped_fonts(installed: Installed):
    out = check(installed.gatekeeper("render", "dontgo", "--moves", "5", "--out", "x.png"))
    assert "wrote x.png" in out
    png = installed.work / "x.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    size = check(installed.python("from PIL import Image; print(*Image.open('x.png').size)"))
    width, height = map(int, size.split())
    assert width > 100 and height > 100


def test_rules_and_data_are_read_from_the_package(installed: Installed):
    out = check(installed.python(
        "from bot.app import rules_sections\n"
        "from data import load_toml, resource\n"
        "for game in ('castle', 'dontgo', 'atmosfear'):\n"
        "    print(game, len(rules_sections(game, 'en')))\n"
        "print(rules_sections('castle', 'en')['winning'])\n"
        "print('font', resource('fonts', 'DejaVuSans.ttf').is_file())\n"
        "print('toml', bool(load_toml('castle', 'castle.toml')))\n"
        "from data.locales import text\n"
        "print('catalog', text('de', 'lobby.button.join'), text('es', 'stats.games', count=2),\n"
        "      text('es', 'game.firetop.option.rounds.value', count=3))"))
    counts = dict(re.findall(r"^(castle|dontgo|atmosfear) (\d+)$", out, re.M))
    assert set(counts) == {"castle", "dontgo", "atmosfear"}
    assert all(int(n) >= 3 for n in counts.values()), counts
    assert "**Winning**" in out
    assert "font True" in out and "toml True" in out
    assert "catalog Beitreten 2 partidas 3 rondas" in out  # the catalogs ship in the wheel


def test_bench_smoke_runs_through_the_packaged_fake_discord(installed: Installed):
    # the part that drives the packaged fake Discord and render pool (the other parts run in
    # tests/test_bench.py from the source tree)
    out = check(installed.gatekeeper("bench", "--smoke", "--only", "moves", "--out", "perf.md"))
    report = (installed.work / "perf.md").read_text()
    assert report.startswith("# Performance")
    assert "gatekeeper bench --smoke --only moves" in report
    row = re.search(r"^\| 1 \| (\d+) \| 20 \|.*\| (\d+) \|$", report, re.M)
    assert row and int(row[1]) > 0 and row[2] == "0", out
    assert not (installed.work / "docs").exists()  # --out was honoured


def test_nothing_in_the_package_imports_tests():
    pattern = re.compile(r"^\s*(from|import)\s+tests\b", re.M)
    offenders = [str(p.relative_to(ROOT)) for folder in ("bot", "games", "render", "data",
                                                         "fakediscord", "sandbox", "bench")
                 for p in (ROOT / folder).rglob("*.py") if pattern.search(p.read_text("utf-8"))]
    assert offenders == []


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    # (it may start by installing system packages the tests need: PostgreSQL's server, Chromium)
    commands = re.findall(r"```sh\n([^\n]*python3 -m venv .venv[^\n]*pytest[^\n]*)\n```", readme)
    assert len(commands) == 1, commands
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line and not line.startswith("#") and "pytest" in line]
    assert ci == commands
