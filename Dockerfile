# Gatekeeper: slim Python, non-root, the database on a volume. Needs only PyPI to build.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    GATEKEEPER_DB=/data/gatekeeper.db

RUN useradd --create-home --uid 10001 gatekeeper && mkdir /data && chown gatekeeper /data
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY games ./games
COPY render ./render
COPY data ./data
COPY docs ./docs
# Editable install: the code finds data/ and docs/ beside itself in /app.
RUN pip install -e .

USER gatekeeper
VOLUME ["/data"]
ENTRYPOINT ["gatekeeper"]
CMD ["run"]
