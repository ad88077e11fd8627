"""A throwaway PostgreSQL server for the tests: `initdb` into a temporary folder and
`pg_ctl start` listening on a Unix socket in that folder only (no TCP port, so the
servers of parallel test workers never clash), trusted local logins, `fsync` off (the
server is never crashed, only its clients are; `durable=True` leaves it on, for the
load benchmark's figures).

The server programs are found with `pg_config --bindir` (when pg_config is on PATH),
else in `/usr/lib/postgresql/<version>/bin` (Debian's `postgresql` package puts them
there, outside PATH); `$PG_BINDIR`, when set, is the only place looked in. `initdb`
refuses to run as root: as root the server runs as the `postgres` user (which Debian's
package creates), else `nobody`.

Databases are made and dropped over one connection the server keeps open
(`create_database`, `drop_database`), not a `psql` process each: a test's database then
costs about 60 ms instead of 350. `create_database(migrated=True)` copies a template
the store has already migrated (built once per server), so the store's first open
finds nothing to do (50 ms instead of 350 on this machine); the tests of migrating
itself ask for an empty database.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Coroutine
from itertools import count
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

SUPERUSER = "mk"
PROGRAMS = ("initdb", "pg_ctl", "postgres", "psql", "pg_dump")


def find_bindir() -> Path | None:
    """The folder of the PostgreSQL server programs, or None when they are absent."""
    candidates: list[Path] = []
    if os.environ.get("PG_BINDIR"):
        # an explicit folder is the only one looked in (PG_BINDIR=none: no server)
        candidates.append(Path(os.environ["PG_BINDIR"]))
        return _first_with_programs(candidates)
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            done = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, check=True, timeout=10
            )
            candidates.append(Path(done.stdout.strip()))
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = [p for p in debian.iterdir() if p.name.isdigit()]
        candidates += [p / "bin" for p in sorted(versions, key=lambda p: -int(p.name))]
    return _first_with_programs(candidates)


def _first_with_programs(candidates: list[Path]) -> Path | None:
    for folder in candidates:
        if all((folder / program).is_file() for program in PROGRAMS):
            return folder
    return None


def _server_user() -> str | None:
    """Whom to run the server as: None (this user) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise RuntimeError("running as root, and there is no 'postgres' or 'nobody' user to run")


class _Admin:
    """One connection to the server's `postgres` database, on an event loop in a thread
    of its own: usable from plain code and from a test's running event loop alike."""

    def __init__(self, url: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="pg-admin", daemon=True)
        self._thread.start()
        import asyncpg

        self._conn: Any = self.run(asyncpg.connect(url))

    def run(self, work: Coroutine[Any, Any, T], timeout: float = 120) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout)

    def execute(self, sql: str) -> None:
        self.run(self._conn.execute(sql))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.run(self._conn.close(), timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()


class PgServer:
    """One server in a temporary folder; `start`, then `create_database`, then `stop`."""

    def __init__(self, bindir: Path, *, durable: bool = False) -> None:
        self.bindir = bindir
        # durable: fsync on, as a real server runs (the load benchmark's figures); the
        # tests never crash the server, so they leave it off
        self.durable = durable
        self.user = _server_user()
        # a short path: a Unix socket's path is limited to about 100 bytes
        self.root = Path(tempfile.mkdtemp(prefix="mk-pg-"))
        self.data = self.root / "data"
        self._names = count(1)
        self._admin: _Admin | None = None
        self._template: str | None = None

    @property
    def socket_dir(self) -> Path:
        return self.root

    def _as_server(self, *argv: str) -> list[str]:
        if self.user is None:
            return list(argv)
        return ["runuser", "-u", self.user, "--", *argv]

    def start(self) -> None:
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        initdb = self._as_server(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        subprocess.run(initdb, check=True, capture_output=True, timeout=120)
        options = (
            f"-c listen_addresses='' -c unix_socket_directories={self.root} -c max_connections=200"
        )
        if not self.durable:
            options += " -c fsync=off -c full_page_writes=off"
        start = self._as_server(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.root / "server.log"),
            "-w",
            "-o",
            options,
            "start",
        )
        subprocess.run(start, check=True, capture_output=True, timeout=120)

    def stop(self) -> None:
        if self._admin is not None:
            self._admin.close()
            self._admin = None
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(
                self._as_server(
                    str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"
                ),
                capture_output=True,
                timeout=60,
            )
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@/{database}?host={self.socket_dir}"

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run SQL through psql; its output (unaligned, tuples only)."""
        done = subprocess.run(
            [
                str(self.bindir / "psql"),
                "-X",
                "-q",
                "-A",
                "-t",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                str(self.socket_dir),
                "-U",
                SUPERUSER,
                "-d",
                database,
                "-c",
                sql,
            ],
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        )
        return done.stdout

    def execute(self, sql: str) -> None:
        """Run a statement in the `postgres` database over the kept connection."""
        if self._admin is None:
            self._admin = _Admin(self.url("postgres"))
        self._admin.execute(sql)

    def create_database(self, prefix: str = "t", *, migrated: bool = False) -> str:
        """A new database; its name. Empty, or with `migrated` a copy of a database the
        store opened once (its schema at the latest version, as the store's first open
        leaves a new database)."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        template = self.migrated_template() if migrated else "template0"
        # FILE_COPY: copying the template's files is faster here than WAL_LOG
        self.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
        return name

    def migrated_template(self) -> str:
        """The database new `migrated` ones copy: made and migrated by the store on its
        first use, then left alone (CREATE DATABASE copies a database nobody is in)."""
        if self._template is None:
            from bot.store.postgres import PostgresStore

            name = self.create_database("template")

            async def migrate() -> None:
                store = PostgresStore(self.url(name), pool_size=1)
                await store.open()
                await store.close()

            assert self._admin is not None
            self._admin.run(migrate())
            self._template = name
        return self._template

    def drop_database(self, name: str) -> None:
        self.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def dump(self, database: str) -> bytes:
        """Every row of a database, as pg_dump writes it (to compare before and after)."""
        done = subprocess.run(
            [
                str(self.bindir / "pg_dump"),
                "--data-only",
                "-h",
                str(self.socket_dir),
                "-U",
                SUPERUSER,
                database,
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )
        # newer pg_dump brackets its output with a random \\restrict key: leave it out
        lines = done.stdout.splitlines(keepends=True)
        return b"".join(
            line for line in lines if not line.startswith((b"\\restrict", b"\\unrestrict"))
        )
