# Gatekeeper. Two stages: the first builds wheels (the project's and its dependencies'), the
# second installs only those wheels, runs as a non-root user and keeps the database on a volume.
# Build: docker build -t gatekeeper .    (needs only PyPI; see README.md, "With Docker").
# RUN --mount needs BuildKit: the default builder since Docker 23 (podman and buildah have it too).

FROM python:3.11-slim AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml ./
COPY bot ./bot
COPY games ./games
COPY render ./render
COPY data ./data
COPY fakediscord ./fakediscord
COPY sandbox ./sandbox
COPY bench ./bench
# The project as a wheel (data, fonts and rules pages inside it), with every dependency as a
# wheel beside it, so the final stage installs offline from exactly what was built here.
RUN pip wheel --wheel-dir /wheels .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    GATEKEEPER_DB=/data/gatekeeper.db \
    GATEKEEPER_SANDBOX=off
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-index --find-links=/wheels gatekeeper
RUN useradd --create-home --uid 10001 gatekeeper \
    && mkdir /data && chown gatekeeper:gatekeeper /data
USER gatekeeper
WORKDIR /home/gatekeeper
# The database, its WAL files and the heartbeat live here; everything else is in the image.
VOLUME ["/data"]
# `gatekeeper run` stops cleanly on SIGTERM (docker stop) well within Docker's 10 s.
STOPSIGNAL SIGTERM
# Healthy while the bot is connected: it rewrites /data/gatekeeper.db.heartbeat every 15 s and
# `gatekeeper health` fails when the newest beat is over 60 s old (or absent).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["gatekeeper", "health"]
ENTRYPOINT ["gatekeeper"]
CMD ["run"]
