"""The benchmarks: each prints timing figures (docs/performance.md). Run each from the
repository root as a module, e.g. `.venv/bin/python -m benchmarks.rules_bench`, or all
of them with `.venv/bin/python -m benchmarks.all`. They import each other as
`benchmarks.<name>` and the tests' helpers as `tests.<...>` (the stand-in Discord in
`tests.bot.fake_discord`, a namespace package: tests/ has no `__init__.py`), with no
change to `sys.path`.
"""
