"""Every test here runs against each store: SQLite and (when its server programs are
installed) PostgreSQL, a fresh database per test. Tests about the SQLite file itself
(its bytes, PRAGMAs, damage done with a raw sqlite3 connection) are marked
`sqlite_only`; tests of what only the PostgreSQL store does, `postgresql_only`.

A test's databases start as copies of one the store has migrated (the store's first
open then has nothing to do: about 300 ms less a PostgreSQL database, 30 ms of CPU less
a new SQLite file); tests of migrating a new database are marked `empty_database` and
get empty ones (a new SQLite path is left for the store to create)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from service_helpers import Backend, use_backend

BACKEND_NAMES = ("sqlite", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "empty_database: the databases start empty (a new SQLite path has no file, the"
        " store creates and migrates it at its first open), not as copies of a migrated one",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        names: tuple[str, ...] = BACKEND_NAMES
        if metafunc.definition.get_closest_marker("sqlite_only") is not None:
            names = ("sqlite",)
        elif metafunc.definition.get_closest_marker("postgresql_only") is not None:
            names = ("postgresql",)
        metafunc.parametrize("backend", names, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    """The store this test runs against; `open_service` opens it too."""
    empty = request.node.get_closest_marker("empty_database") is not None
    if request.param == "postgresql":
        server = request.getfixturevalue("pg_server")
        chosen = Backend("postgresql", server=server, migrated=not empty)
    else:
        chosen = Backend("sqlite", migrated=not empty)
    previous = use_backend(chosen)
    try:
        yield chosen
    finally:
        use_backend(previous)
        chosen.drop_databases()


@pytest.fixture(autouse=True)
def _every_backend(backend: Backend) -> None:
    """Puts `backend` (and so its parametrization) on every test of this folder."""
