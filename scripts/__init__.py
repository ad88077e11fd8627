"""The project's scripts: figures, generated data and images. Run each from the
repository root as a module, e.g. `.venv/bin/python -m scripts.point_balance --help`;
they import each other as `scripts.<name>` (and the tests' helpers as `tests.<...>`),
with no change to `sys.path`. `./scripts/test` and `./scripts/run-bot` are shell scripts.
"""
