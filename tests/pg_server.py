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
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from itertools import count
from pathlib import Path

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

    def create_database(self, prefix: str = "t") -> str:
        """A new empty database; its name."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        self.psql(f"CREATE DATABASE {name} TEMPLATE template0 STRATEGY FILE_COPY")
        return name

    def drop_database(self, name: str) -> None:
        self.psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

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
