# Sourced by scripts/test and scripts/run-bot: make .venv and install the project
# (with its development tools) whenever pyproject.toml has changed since the last install.
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
if [ ! -f .venv/.installed ] || [ pyproject.toml -nt .venv/.installed ]; then
    # today's pip installs the project in about half the time of Python 3.11's own
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e '.[dev]'
    touch .venv/.installed
fi
