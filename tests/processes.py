"""Child processes for the tests.

`dead_process_id()`: for the tests of several bot processes on one database, the id a
process of this machine had that is gone (bot/service/duties.py releases its claims at
once on its own machine).

`spawn_python` and `run_python`: a quicker launch of the project's programs
(`python -m bot ...`, `python tests/service/crash_worker.py ...`) for the tests that
need a real, separate OS process running them but are not about the interpreter's own
start-up. Importing the bot costs about 1.7 s of CPU in every new interpreter (and the
two-core machine runs two test workers); here each test worker starts one fork server
(`python tests/processes.py --serve FD`) that imports the bot once, and every launch is
a fork of it that runs the same entry point as the command line would:

- `["-m", "bot", *args]` runs `runpy.run_module("bot", run_name="__main__")`, as
  `python -m bot` does (`bot.__main__` is executed afresh, `sys.argv` and `sys.path[0]`
  set as the interpreter sets them); a script path runs `runpy.run_path`;
- the child gets the environment, working directory and stdin/stdout/stderr it is
  given (the file descriptors are passed over a Unix socket, dup2'ed to 0, 1 and 2,
  and every other descriptor is closed, as `subprocess.Popen(close_fds=True)` leaves
  it); `PYTHONUNBUFFERED` is honoured; settings and `.env` are read at run time, in
  the child, from that environment and directory;
- it is a new OS process with its own pid, its own sockets and its own event loop
  (the server never runs one and has no thread but its main one when it forks: it
  refuses to fork otherwise); `random`'s global generator is reseeded after the fork
  by Python itself, and every other unseeded `random.Random` made at import (aiohttp's
  websocket mask generator, a default argument) is reseeded in the child;
- the exit status is the interpreter's (SystemExit's code, 1 and the traceback for an
  uncaught exception; non-daemon threads are joined and atexit handlers run first), or
  minus the signal that killed it; the server reaps the child and sends the status;
- the test signals the child through a pidfd (`signal.pidfd_send_signal`), so a
  SIGKILL never reaches a reused pid; the child gets SIGKILL when the server dies
  (PR_SET_PDEATHSIG), and the server when the test worker dies or closes its end.

What a fork does not give afresh: the imports themselves (module-level state after
import is the same in every fresh interpreter), the string hash seed (shared by the
children of one server: only the order of iterating a set of strings could differ),
and where the garbage collector keeps the imported objects (frozen by the server after
a full collection: the child's collections skip them, and find no garbage there).
Forked: the bot processes of test_bot_crash, test_bot_processes, test_bot_shards and
test_fake_discord (tests/bot/process_harness.py, `fork=True`), the `check` and `backup`
runs of test_check_repairs and test_service_integrity, and test_service_crash's
worker. The tests of the entry point itself keep a real exec of `python -m bot`:
start-up lines, settings errors, `.env`, the token or password never shown
(test_bot_startup, test_bot_hosting, test_health, test_migrate's command line,
test_architecture's `--help`).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ctypes
import gc
import importlib
import io
import json
import os
import random
import runpy
import select
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.service.duties import process_id

ROOT = Path(__file__).resolve().parents[1]
# what the fork server imports before it forks: everything `python -m bot` imports, and
# what tests/service/crash_worker.py imports beside it
WARM = ("bot.__main__", "bot.store.postgres", "rules.selfplay")
PR_SET_PDEATHSIG = 1
# the largest request (argv, environment, working directory), in bytes
MAX_REQUEST = 1 << 20


def dead_process_id() -> str:
    """The id a process of this machine had, taken by a process that has exited."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    place, _, rest = process_id().rsplit(":", 2)
    return f"{place}:{proc.pid}:{rest}"


def die_with_parent() -> None:
    """SIGKILL this process when the thread that made it ends (Linux; between fork and
    exec in `subprocess.Popen(preexec_fn=...)`, or in a forked child)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class ForkedProcess:
    """A process the fork server started: `pid`, `returncode`, `poll`, `wait`,
    `send_signal`, `kill` and `terminate` as `subprocess.Popen` has them, and
    `wait_async` for a test's event loop."""

    def __init__(self, reply: socket.socket, args: list[str]) -> None:
        self.args = args
        self.returncode: int | None = None
        self._reply = reply
        self._reply.setblocking(False)
        self._pid: int | None = None
        self._pidfd: int | None = None
        self._error = ""

    def _read(self) -> bool:
        """Take in what the server sent; False when nothing (more) is there."""
        try:
            data, fds, _, _ = socket.recv_fds(self._reply, 4096, 1)
        except BlockingIOError:
            return False
        if not data:  # the server closed its end without an exit status
            for fd in fds:
                os.close(fd)
            if self.returncode is None:
                self._error = self._error or "the fork server went away"
                self.returncode = -signal.SIGKILL if self._pid else 127
            return False
        word, _, value = data.decode().partition(" ")
        if word == "pid":
            self._pid, self._pidfd = int(value), fds[0]
        elif word == "exit":
            self.returncode = int(value)
            self._close()
        else:
            self._error = value
            self.returncode = 127
            self._close()
        return True

    def _close(self) -> None:
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None
        self._reply.close()

    def _pump(self, timeout: float | None = 0) -> None:
        """Read what the server sent, waiting up to `timeout` seconds (None: for ever)
        for a first message."""
        if self._reply.fileno() < 0:
            return
        ready, _, _ = select.select([self._reply], [], [], timeout)
        if ready:
            while self._reply.fileno() >= 0 and self._read():
                pass

    @property
    def started(self) -> bool:
        self._pump()
        return self._pid is not None or self.returncode is not None

    @property
    def pid(self) -> int:
        while self._pid is None:
            if self.returncode is not None:
                raise OSError(f"the fork server could not start {self.args}: {self._error}")
            self._pump(None)
        return self._pid

    async def wait_started(self, timeout: float = 120) -> int:
        """The pid, without blocking the event loop while the server starts."""
        deadline = time.monotonic() + timeout
        while not self.started:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the fork server did not start {self.args}")
            await asyncio.sleep(0.005)
        return self.pid

    def poll(self) -> int | None:
        if self.returncode is None:
            self._pump()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.returncode is None:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            self._pump(left)
        return self.returncode

    async def wait_async(self) -> int:
        while self.poll() is None:
            await asyncio.sleep(0.005)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        self.pid  # noqa: B018 (started: there is a pidfd to signal)
        if self.poll() is None and self._pidfd is not None:
            # a pidfd names this process even once it is gone: never a reused pid
            with contextlib.suppress(ProcessLookupError):  # it ended meanwhile
                signal.pidfd_send_signal(self._pidfd, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class ForkServer:
    """One fork server (a child of this process) and the control socket to it."""

    def __init__(self) -> None:
        self._control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._lock = threading.Lock()
        self.log = Path(tempfile.mkstemp(prefix="mk-fork-server-", suffix=".log")[1])
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        )
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "--serve", str(theirs.fileno())],
                cwd=ROOT,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=[theirs.fileno()],
                preexec_fn=die_with_parent,
            )
        theirs.close()

    def spawn(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: Path | str,
        stdin: int,
        stdout: int,
        stderr: int,
    ) -> ForkedProcess:
        if self.proc.poll() is not None:
            raise OSError(f"the fork server exited with {self.proc.returncode}: {self.tail()}")
        mine, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        request = json.dumps({"argv": list(argv), "env": dict(env), "cwd": str(cwd)}).encode()
        with self._lock:
            socket.send_fds(self._control, [request], [theirs.fileno(), stdin, stdout, stderr])
        theirs.close()
        return ForkedProcess(mine, [sys.executable, *argv])

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""

    def close(self) -> None:
        self._control.close()  # the server kills its children and exits
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        with contextlib.suppress(OSError):
            self.log.unlink()


_server: ForkServer | None = None


def fork_server() -> ForkServer:
    """This process's fork server, started on first use."""
    global _server
    if _server is None or _server.proc.poll() is not None:
        _server = ForkServer()
        atexit.register(_server.close)
    return _server


class ExecProcess(subprocess.Popen[bytes]):
    """`python *argv` in a new interpreter, with ForkedProcess's async waits: what
    `spawn_python` starts where there is no fork server (see FORKING)."""

    async def wait_started(self, timeout: float = 120) -> int:
        return self.pid

    async def wait_async(self) -> int:
        while self.poll() is None:
            await asyncio.sleep(0.005)
        return self.returncode


# the fork server needs pidfds (Linux 5.3); MK_FORK_SERVER=0 makes every launch here a
# real exec, to compare the two
FORKING = (
    sys.platform.startswith("linux")
    and hasattr(os, "pidfd_open")
    and hasattr(signal, "pidfd_send_signal")
    and os.environ.get("MK_FORK_SERVER", "1") != "0"
)


def spawn_python(
    argv: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path | str,
    stdout: int,
    stderr: int,
    stdin: int | None = None,
) -> ForkedProcess | ExecProcess:
    """`python *argv` (`["-m", "bot", ...]` or a script and its arguments) as a fork of
    the fork server, with these file descriptors as its stdin (default /dev/null),
    stdout and stderr; a new interpreter where there is no fork server."""
    with open(os.devnull, "rb") as devnull:
        stdin = devnull.fileno() if stdin is None else stdin
        if not FORKING:
            return ExecProcess(
                [sys.executable, *argv],
                env=dict(env),
                cwd=cwd,
                stdin=stdin,
                stdout=stdout,
                stderr=stderr,
                preexec_fn=die_with_parent,
            )
        return fork_server().spawn(
            argv, env=env, cwd=cwd, stdin=stdin, stdout=stdout, stderr=stderr
        )


def run_python(
    argv: Sequence[str], *, env: Mapping[str, str], cwd: Path | str, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`subprocess.run([sys.executable, *argv], capture_output=True, text=True, ...)`
    through the fork server."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = spawn_python(argv, env=env, cwd=cwd, stdout=out.fileno(), stderr=err.fileno())
        try:
            code = proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
            raise
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(
            proc.args,
            code,
            out.read().decode(errors="replace"),
            err.read().decode(errors="replace"),
        )


# --- the server ----------------------------------------------------------------------


def _serve(control_fd: int) -> None:
    for name in WARM:
        importlib.import_module(name)
    # `python -m bot` runs bot/__main__.py as __main__, never as bot.__main__
    sys.modules.pop("bot.__main__", None)
    with contextlib.suppress(AttributeError):
        delattr(sys.modules["bot"], "__main__")
    # what the imports made, moved out of the collector's way (as Python's docs advise
    # before forking): a child's collections, `settle_memory`'s full one at start-up
    # among them, then skip it (about 60 ms each); the imports left no garbage to keep
    gc.collect()
    # the generators to reseed in each child (once frozen, gc.get_objects() misses them)
    generators = [
        g
        for g in gc.get_objects()
        if type(g) is random.Random and g is not random._inst  # type: ignore[attr-defined]
    ]
    gc.freeze()
    control = socket.socket(fileno=control_fd)
    selector = selectors.DefaultSelector()
    selector.register(control, selectors.EVENT_READ)
    children: dict[int, tuple[int, socket.socket]] = {}  # pidfd -> (pid, reply socket)
    server = os.getpid()
    while True:
        for key, _ in selector.select():
            if key.fileobj is not control:
                pidfd = key.fd
                pid, reply = children.pop(pidfd)
                selector.unregister(pidfd)
                _, status = os.waitpid(pid, 0)
                with contextlib.suppress(OSError):
                    reply.send(f"exit {os.waitstatus_to_exitcode(status)}".encode())
                reply.close()
                os.close(pidfd)
                continue
            data, fds, _, _ = socket.recv_fds(control, MAX_REQUEST, 4)
            if not data:  # the test worker is gone or done: so are its processes
                for _, (pid, _) in children.items():
                    with contextlib.suppress(OSError):
                        os.kill(pid, signal.SIGKILL)
                for pid, _ in children.values():
                    with contextlib.suppress(OSError):
                        os.waitpid(pid, 0)
                return
            reply = socket.socket(fileno=fds[0])
            request = json.loads(data)
            if threading.active_count() != 1:
                reply.send(b"error the fork server has a thread: it does not fork")
                reply.close()
                for fd in fds[1:]:
                    os.close(fd)
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                # the child keeps only its own descriptors: close the server's
                selector.close()
                control.close()
                for pidfd_, (_, other) in children.items():
                    other.close()
                    os.close(pidfd_)
                reply.close()
                os._exit(_child(request, fds[1:], server, generators))
            for fd in fds[1:]:
                os.close(fd)
            pidfd = os.pidfd_open(pid)
            try:
                socket.send_fds(reply, [f"pid {pid}".encode()], [pidfd])
            except OSError:  # the test gave up on it already
                os.kill(pid, signal.SIGKILL)
            children[pidfd] = (pid, reply)
            selector.register(pidfd, selectors.EVENT_READ)


def _child(
    request: dict[str, Any], stdio: list[int], server: int, generators: list[random.Random]
) -> int:
    """In the forked child: become `python *argv` and run it; the exit status."""
    try:
        die_with_parent()
        if os.getppid() != server:  # the server died before the line above
            return 1
        for target, fd in enumerate(stdio):
            os.dup2(fd, target)
        for fd in set(stdio):
            if fd > 2:
                os.close(fd)
        os.chdir(request["cwd"])
        env: dict[str, str] = request["env"]
        os.environ.clear()
        os.environ.update(env)
        _stdio(unbuffered=bool(env.get("PYTHONUNBUFFERED")))
        for generator in generators:
            generator.seed()
        argv: list[str] = request["argv"]
        module = argv[1] if argv[0] == "-m" else None
        path0 = os.getcwd() if module else str(Path(argv[0]).resolve().parent)
        searched = [path0, *filter(None, env.get("PYTHONPATH", "").split(os.pathsep))]
        if not any(Path(p).resolve() == ROOT for p in searched):
            print(
                f"fork server: {ROOT} (where it imported the bot from) is neither the working"
                " directory nor on PYTHONPATH: this launch needs a real exec",
                file=sys.stderr,
            )
            return 126
        sys.path[0] = path0
    except BaseException as error:
        with contextlib.suppress(Exception):
            os.write(2, f"fork server: the child could not start: {error!r}\n".encode())
        return 127
    return _run(module, argv)


def _stdio(*, unbuffered: bool) -> None:
    """New sys.stdin, sys.stdout and sys.stderr over descriptors 0, 1 and 2, buffered
    as a new interpreter would buffer them."""
    encoding = sys.stdout.encoding
    out: io.RawIOBase | io.BufferedWriter = io.FileIO(1, "w", closefd=False)
    err: io.RawIOBase | io.BufferedWriter = io.FileIO(2, "w", closefd=False)
    if not unbuffered:
        out, err = io.BufferedWriter(out), io.BufferedWriter(err)
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(
        io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding=encoding
    )
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(
        out, encoding=encoding, line_buffering=os.isatty(1), write_through=unbuffered
    )
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(
        err,
        encoding=encoding,
        errors="backslashreplace",
        line_buffering=True,
        write_through=unbuffered,
    )


def _run(module: str | None, argv: list[str]) -> int:
    """Run the program as the interpreter would, and end as it ends: the exit status."""
    code = 0
    try:
        if module is not None:
            sys.argv = ["-m", *argv[2:]]  # run_module sets argv[0] to the module's file
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            sys.argv = list(argv)
            runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as exit_:
        if exit_.code is None:
            code = 0
        elif isinstance(exit_.code, int):
            code = exit_.code & 0xFF
        else:
            print(exit_.code, file=sys.stderr)
            code = 1
    except BaseException:
        sys.excepthook(*sys.exc_info())
        code = 1
    with contextlib.suppress(Exception):
        threading._shutdown()  # type: ignore[attr-defined] (join non-daemon threads)
    with contextlib.suppress(Exception):
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    return code


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        _serve(int(sys.argv[2]))
    else:
        sys.exit(f"usage: {sys.argv[0]} --serve FD")
