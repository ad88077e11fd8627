# Sourced by scripts/test and scripts/run-bot: make .venv and install the project
# (with its development tools) whenever pyproject.toml has changed since the last install.
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
if [ ! -f .venv/.installed ] || [ pyproject.toml -nt .venv/.installed ]; then
    .venv/bin/python -m pip install --quiet -e '.[dev]'
    touch .venv/.installed
fi
