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

A copy of the template that a test has finished with is not dropped but emptied
(every row deleted from the tables the template holds none in, every sequence set back
to its start) and kept for the next test that asks for one, when, emptied, it is again
what a fresh copy is: the same catalogue (schemas, tables and columns, constraints,
indexes, sequences and where they stand, functions, triggers, views, types, settings)
and the same rows in the tables the template fills (the schema version), compared in
one query (`FINGERPRINT`). A copy that differs in any of those (a test changed the
schema, the version, a setting...) is dropped as before. Copying a database and
dropping it costs 100-150 ms on a quiet machine and 300-700 while the test workers
load it (CREATE DATABASE waits for two checkpoints); emptying one, 20-60.
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
from collections.abc import Callable, Coroutine
from itertools import count
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

SUPERUSER = "mk"
PROGRAMS = ("initdb", "pg_ctl", "postgres", "psql", "pg_dump")

# the tables the store's migrations fill: a copy of the template keeps their rows, and
# they are compared whole; every other table starts empty
FILLED_TABLES = ("public.mk_schema",)

# what a test could change in a database besides the rows of its tables, in one value
_NOT_SYSTEM = "NOT IN ('pg_catalog', 'information_schema', 'pg_toast')"
FINGERPRINT = f"""
SELECT json_build_object(
  'schemas', (SELECT json_agg(nspname ORDER BY nspname) FROM pg_namespace),
  'columns', (SELECT json_agg(concat_ws(':', table_schema, table_name, column_name,
                data_type, column_default, is_nullable, ordinal_position)
                ORDER BY table_schema, table_name, ordinal_position)
              FROM information_schema.columns WHERE table_schema {_NOT_SYSTEM}),
  'tables', (SELECT json_agg(concat_ws(':', n.nspname, c.relname, c.relkind,
               c.relpersistence, c.relrowsecurity) ORDER BY n.nspname, c.relname)
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname {_NOT_SYSTEM}),
  'constraints', (SELECT json_agg(concat_ws(':', conrelid::regclass, conname,
                    pg_get_constraintdef(oid)) ORDER BY conrelid::regclass::text, conname)
                  FROM pg_constraint WHERE connamespace::regnamespace::text {_NOT_SYSTEM}),
  'indexes', (SELECT json_agg(indexdef ORDER BY indexdef) FROM pg_indexes
              WHERE schemaname {_NOT_SYSTEM}),
  'sequences', (SELECT json_agg(concat_ws(':', schemaname, sequencename, start_value,
                  increment_by, last_value) ORDER BY schemaname, sequencename)
                FROM pg_sequences),
  'functions', (SELECT json_agg(concat_ws(':', p.oid::regprocedure, md5(p.prosrc))
                  ORDER BY p.oid::regprocedure::text)
                FROM pg_proc p WHERE p.pronamespace::regnamespace::text {_NOT_SYSTEM}),
  'triggers', (SELECT json_agg(concat_ws(':', tgrelid::regclass, tgname, tgenabled)
                 ORDER BY tgrelid::regclass::text, tgname)
               FROM pg_trigger WHERE NOT tgisinternal),
  'views', (SELECT json_agg(concat_ws(':', schemaname, viewname, definition)
              ORDER BY schemaname, viewname)
            FROM pg_views WHERE schemaname {_NOT_SYSTEM}),
  'types', (SELECT json_agg(concat_ws(':', typnamespace::regnamespace, typname, typtype)
              ORDER BY typnamespace::regnamespace::text, typname)
            FROM pg_type WHERE typnamespace::regnamespace::text {_NOT_SYSTEM}),
  'settings', (SELECT json_agg(setconfig::text ORDER BY setconfig::text)
               FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
               WHERE d.datname = current_database()),
  {
    ", ".join(
        f"'{table}', (SELECT json_agg(row_to_json(t) ORDER BY row_to_json(t)::text) FROM {table} t)"
        for table in FILLED_TABLES
    )
}
)::text
"""


async def _fingerprint(conn: Any) -> str:
    return str(await conn.fetchval(FINGERPRINT))


async def _empty_tables(conn: Any) -> list[str]:
    """The tables a fresh copy of the template has no rows in: all but FILLED_TABLES."""
    rows = await conn.fetch(
        "SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables"
        f" WHERE schemaname {_NOT_SYSTEM} ORDER BY 1"
    )
    return [r["name"] for r in rows if r["name"] not in FILLED_TABLES]


async def _template_fingerprint(conn: Any) -> str:
    """The migrated template's FINGERPRINT, once its other tables are seen empty."""
    for table in await _empty_tables(conn):
        filled = await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})")
        assert not filled, f"the migrations fill {table}: add it to FILLED_TABLES"
    return await _fingerprint(conn)


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
        self._fingerprint = ""  # the template's FINGERPRINT
        self._copies: set[str] = set()  # the databases made as copies of the template
        self._spare: list[str] = []  # copies emptied back to the template's state

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
        if migrated and self._spare:
            return self._spare.pop()
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        template = self.migrated_template() if migrated else "template0"
        # FILE_COPY: copying the template's files is faster here than WAL_LOG
        self.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY")
        if migrated:
            self._copies.add(name)
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
            self._fingerprint = self._in(name, _template_fingerprint)
            self._template = name
        return self._template

    def _in(self, database: str, work: Callable[[Any], Coroutine[Any, Any, T]]) -> T:
        """`work(connection)` on a connection of its own to `database`."""
        import asyncpg

        async def run() -> T:
            conn = await asyncpg.connect(self.url(database))
            try:
                return await work(conn)
            finally:
                await conn.close()

        if self._admin is None:
            self._admin = _Admin(self.url("postgres"))
        return self._admin.run(run())

    def _empty_again(self, name: str) -> bool:
        """Empty a copy of the template that a test has finished with; whether it is
        again what a fresh copy is (see the module's docstring)."""
        self.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            f" WHERE datname = '{name}' AND pid <> pg_backend_pid()"
        )

        async def empty(conn: Any) -> str:
            # DELETE, not TRUNCATE: a test leaves a few rows, and TRUNCATE makes every
            # table's files anew (about 10 ms against 130 here); the foreign keys'
            # triggers are off for the session (every row of every table goes)
            sequences = await conn.fetch(
                "SELECT format('%I.%I', schemaname, sequencename) AS name, start_value"
                " FROM pg_sequences"
            )
            await conn.execute(
                "; ".join(
                    [
                        "SET session_replication_role = replica",
                        *(f"DELETE FROM {table}" for table in await _empty_tables(conn)),
                        *(
                            f"SELECT setval('{r['name']}', {r['start_value']}, false)"
                            for r in sequences
                        ),
                        "SET session_replication_role = DEFAULT",
                    ]
                )
            )
            return await _fingerprint(conn)

        try:
            return self._in(name, empty) == self._fingerprint
        except Exception:
            return False

    def drop_database(self, name: str) -> None:
        """Done with a database: a copy of the template is emptied and kept for the
        next test when it can be; any other database is dropped."""
        if name in self._copies:
            if name not in self._spare and self._empty_again(name):
                self._spare.append(name)
                return
            self._copies.discard(name)
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
