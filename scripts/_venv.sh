# Sourced by scripts/test and scripts/run-bot: make .venv and install the project
# (with its development tools) whenever pyproject.toml has changed since the last install.
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    # today's pip installs the project in about half the time of Python 3.11's own:
    # where this Python has a pip (22.3 or newer), that pip puts the newest pip into a
    # venv made without one (about 10 s quicker than making the venv with the bundled
    # pip and upgrading it); otherwise the venv comes with the bundled pip
    if ! { "$PY" -m venv --without-pip .venv \
        && "$PY" -m pip --python .venv/bin/python install --quiet --upgrade pip; }; then
        rm -rf .venv
        "$PY" -m venv .venv
    fi
fi
if [ ! -f .venv/.installed ] || [ pyproject.toml -nt .venv/.installed ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e '.[dev]'
    touch .venv/.installed
fi
