"""Structured one-line logs, with the token scrubbed from anything that might echo it, and
without discord.py's warnings about voice, which the bot never uses."""
from __future__ import annotations

import logging
import sys


class RedactFilter(logging.Filter):
    def __init__(self, secrets: list[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(secret in message for secret in self.secrets):
            for secret in self.secrets:
                message = message.replace(secret, "[redacted]")
            record.msg, record.args = message, None
        return True


class NoVoiceFilter(logging.Filter):
    """Drops discord.py's start-up warnings that its optional voice libraries (PyNaCl, davey)
    are missing: the bot joins no voice channel, so they only alarm whoever reads the log.
    Every other record passes."""

    VOICE_LIBRARIES = ("PyNaCl", "davey")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not (message.endswith("is not installed, voice will NOT be supported")
                    and message.split(" ", 1)[0] in self.VOICE_LIBRARIES)


NO_VOICE = NoVoiceFilter()


def setup_logging(level: str, secrets: list[str]) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    handler.addFilter(RedactFilter(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("discord.client").addFilter(NO_VOICE)  # once: the same filter each call
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO)
                                          if isinstance(logging.getLevelName(level), int)
                                          else logging.INFO)
