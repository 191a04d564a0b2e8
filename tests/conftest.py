from tests.fakediscord.fixtures import fake_discord  # noqa: F401  (the fixture, for every test)
