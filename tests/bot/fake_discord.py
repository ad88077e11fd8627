"""A small stand-in for Discord's REST API and gateway on 127.0.0.1, so the real bot
can be tested over the wire (aiohttp, multipart uploads, the gateway handshake)
without reaching Discord. It speaks just enough of both, records every request, and
can push interactions to the bot. See ../../../shared/DISCORD-TESTING.md for the
parts of the protocol it follows.

Beyond the happy path it models what crash recovery depends on:

- `nonce` + `enforce_nonce`: a second create-message with the same nonce by the same
  author in the same channel within `nonce_window` seconds returns the first message
  and creates nothing. The nonce is not stored for later reads (Discord returns it
  only in the create response), so `GET .../messages` does not show it.
- `GET /channels/{id}/messages` (newest first, `limit`, `before`, `after`, `around`).
- archived threads (`archive()`): a post answers 400 / code 50083 until the thread is
  unarchived with `PATCH /channels/{id}` (`Thread.edit(archived=False)`).
- interaction tokens expire after `token_ttl` seconds (404 / code 10015).
- `fail()`: injected Discord-shaped errors; `on_request()`: run an action (kill the
  bot) when a request arrives, before or after Discord "received" it.
- successive gateway connections (a bot process killed and started again), and
  several at once: each bot process (told apart by its token) or shard has its own;
  `slash(..., via=token)` and `click(..., via=token)` pick the one an interaction goes
  to, as Discord picks one session for each. A connection that IDENTIFYs as a shard
  (`shard: [id, count]`) gets the test guild only if it is that guild's shard
  (`(guild_id >> 22) % count`), as on Discord.

Time: `now()` is a monotonic clock the test can move with `advance()`; message ids
and timestamps follow `wall()` (real time plus the same offset).
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import http
import inspect
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from aiohttp import WSMsgType, web

APP_ID = "900000000000000001"
BOT_ID = "900000000000000002"
GUILD_ID = "900000000000000010"
CHANNEL_ID = "900000000000000011"
NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC).isoformat()
PERMISSIONS = "2248473465835073"
DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
# message fields the fake keeps for tests but Discord never sends back
PRIVATE_KEYS = frozenset({"allowed_mentions"})


def user(uid: str, name: str, bot: bool = False) -> dict[str, Any]:
    return {
        "id": uid,
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": None,
        "bot": bot,
    }


@dataclass
class Upload:
    filename: str
    data: bytes


@dataclass
class Request:
    method: str
    path: str  # without /api/v10 and without the query string
    json: Any  # the JSON body, or the multipart payload_json
    files: list[Upload] = field(default_factory=list)
    query: dict[str, str] = field(default_factory=dict)
    auth: str | None = None  # the bot token of "Authorization: Bot <token>"
    status: int = 0  # what the fake answered; 0: no answer (connection dropped)


class Pushed(NamedTuple):
    """An interaction pushed to the bot: its id and the token follow-ups use."""

    id: str
    token: str


@dataclass
class Failure:
    method: str
    path_glob: str
    status: int
    code: int
    message: str
    times: int | None
    hits: int = 0


@dataclass
class Hook:
    predicate: Callable[[str, str, Any], bool]
    action: Callable[[], Any]
    store_first: bool
    fired: asyncio.Event = field(default_factory=asyncio.Event)  # the request arrived
    done: asyncio.Event = field(default_factory=asyncio.Event)  # the action finished
    request: Request | None = None


@dataclass
class FakeInteraction:
    id: str
    token: str
    type: int  # 2 slash, 3 component
    user_id: str
    channel_id: str
    created: float  # on the fake's clock, now()
    message_id: str | None = None  # the message a component sits on
    callbacks: list[int] = field(default_factory=list)  # response types, in order
    ephemeral: bool = False  # the ACK's flags (they win over the first follow-up's)
    awaiting_first_followup: bool = False  # after a type-5 defer
    original_id: str | None = None
    followup_ids: list[str] = field(default_factory=list)  # POSTs to the token, in order


class DiscordError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors is not None:
            out["errors"] = self.errors
        return out


class FakeDiscord:
    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.messages: list[dict[str, Any]] = []  # every stored message, with "_" fields
        self.deleted: list[dict[str, Any]] = []
        self.users: dict[str, dict[str, Any]] = {}
        self.threads: dict[str, dict[str, Any]] = {}
        self.dm_channels: dict[str, str] = {}  # user id -> DM channel id
        self.interactions: dict[str, FakeInteraction] = {}
        self.commands: list[dict[str, Any]] = []  # the last synced command list
        self.dedup_hits: list[dict[str, Any]] = []  # resends answered with the earlier message
        self.failures: list[Failure] = []
        self.internal_errors: list[str] = []  # the fake's own bugs, answered with a 400
        self.hooks: list[Hook] = []
        # gateway
        self.connections = 0
        self.disconnects = 0
        self.identifies: list[dict[str, Any]] = []  # IDENTIFY payloads, in order
        self.identified = asyncio.Event()  # cleared by each new connection
        self._ws: web.WebSocketResponse | None = None
        self._sockets: set[web.WebSocketResponse] = set()
        self._by_token: dict[str, web.WebSocketResponse] = {}  # the newest of each token
        self._seq = 0
        # knobs
        self.nonce_window = 300.0
        self.token_ttl = 900.0
        self.callback_ttl: float | None = None  # Discord: 3 s; None: not enforced
        self.send_unarchives = False  # True: a post unarchives an unlocked thread
        self.clock_offset = 0.0
        self._last_id = 0
        self._release = asyncio.Event()  # set by stop(): hung handlers give up
        self._tasks: set[asyncio.Task[None]] = set()
        self.runner: web.AppRunner | None = None
        self.port = 0

    # --- time and ids -------------------------------------------------------------------

    def now(self) -> float:
        """The fake's clock for windows and expiries (seconds, monotonic)."""
        return time.monotonic() + self.clock_offset

    def wall(self) -> float:
        """Unix time as the fake sees it (for ids and timestamps)."""
        return time.time() + self.clock_offset

    def advance(self, seconds: float) -> None:
        self.clock_offset += seconds

    def next_id(self) -> str:
        """A snowflake of the fake's wall clock, always increasing."""
        candidate = (int(self.wall() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last_id = max(self._last_id + 1, candidate)
        return str(self._last_id)

    def timestamp(self) -> str:
        return datetime.fromtimestamp(self.wall(), UTC).isoformat()

    # --- server -------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self.gateway)
        app.router.add_get("/cdn/{mid}/{name}", self.cdn)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest)
        self.runner = web.AppRunner(app, shutdown_timeout=2.0)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        self._release.set()
        for ws in list(self._sockets):
            await ws.close()
        if self.runner is not None:
            await self.runner.cleanup()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def wait_for(
        self, check: Callable[[], Any], timeout: float = 10.0, what: str = "condition"
    ) -> Any:
        """Poll `check` every 10 ms until it returns something truthy."""
        deadline = time.monotonic() + timeout
        while True:
            if result := check():
                return result
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
            await asyncio.sleep(0.01)

    # --- gateway ------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._ws is not None and not self._ws.closed

    async def wait_identified(self, n: int = 1, timeout: float = 10.0) -> dict[str, Any]:
        """Wait until `n` IDENTIFYs arrived in all (one per bot start); returns the n-th."""
        await self.wait_for(lambda: len(self.identifies) >= n, timeout, f"IDENTIFY #{n}")
        return self.identifies[n - 1]

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.connections += 1
        session = f"session-{self.connections}"
        self._ws = ws
        self._sockets.add(ws)
        self.identified.clear()
        try:
            await ws.send_json({"op": 10, "d": {"heartbeat_interval": 45000}})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                if data["op"] == 1:
                    await ws.send_json({"op": 11})
                elif data["op"] == 2:
                    self.identifies.append({**data["d"], "session_id": session})
                    self._by_token[str(data["d"].get("token"))] = ws
                    shard = data["d"].get("shard")
                    ours = shard_of(GUILD_ID, shard[1]) == shard[0] if shard else True
                    await self.dispatch(
                        "READY",
                        {
                            "v": 10,
                            "user": user(BOT_ID, "mountain-king", bot=True),
                            "session_id": session,
                            "resume_gateway_url": self.gateway_url,
                            "guilds": [{"id": GUILD_ID, "unavailable": True}] if ours else [],
                            "application": {"id": APP_ID, "flags": 0},
                            **({"shard": shard} if shard else {}),
                        },
                        ws=ws,
                    )
                    if ours:
                        await self.dispatch("GUILD_CREATE", self.guild(), ws=ws)
                    self.identified.set()
                elif data["op"] == 6:
                    await self.dispatch("RESUMED", {}, ws=ws)
        finally:
            self._sockets.discard(ws)
            if self._ws is ws:
                self._ws = None
            self.disconnects += 1
        return ws

    def connection(self, token: str | None) -> web.WebSocketResponse | None:
        """The live gateway connection of the bot process with this token (None for
        no token: the newest connection)."""
        if token is None:
            return None
        ws = self._by_token.get(token)
        if ws is None or ws.closed:
            raise RuntimeError(f"no bot with the token {token!r} is connected to the gateway")
        return ws

    async def dispatch(
        self, event: str, data: dict[str, Any], ws: web.WebSocketResponse | None = None
    ) -> None:
        """Send an event to `ws`, by default the newest live connection."""
        ws = ws or self._ws
        if ws is None or ws.closed:
            raise RuntimeError(f"no bot is connected to the gateway to receive {event}")
        self._seq += 1
        await ws.send_json({"op": 0, "t": event, "s": self._seq, "d": data})

    def guild(self) -> dict[str, Any]:
        members = [self.member(u) for u in self.users.values()]
        return {
            "id": GUILD_ID,
            "name": "Test",
            "icon": None,
            "owner_id": BOT_ID,
            "features": [],
            "roles": [
                {
                    "id": GUILD_ID,
                    "name": "@everyone",
                    "permissions": PERMISSIONS,
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [self.text_channel(CHANNEL_ID)],
            # like Discord: only active threads come with the guild
            "threads": [t for t in self.threads.values() if not t["thread_metadata"]["archived"]],
            "members": members,
            "member_count": len(members),
            "emojis": [],
            "stickers": [],
            "large": False,
            "unavailable": False,
            "joined_at": NOW,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "mfa_level": 0,
            "verification_level": 0,
            "explicit_content_filter": 0,
            "premium_tier": 0,
            "default_message_notifications": 0,
            "system_channel_id": None,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
        }

    @staticmethod
    def text_channel(cid: str) -> dict[str, Any]:
        return {
            "id": cid,
            "type": 0,
            "guild_id": GUILD_ID,
            "name": "games",
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        }

    def member(self, u: dict[str, Any]) -> dict[str, Any]:
        return {"user": u, "roles": [], "joined_at": NOW, "deaf": False, "mute": False, "flags": 0}

    def add_thread(self, name: str) -> str:
        tid = self.next_id()
        self.threads[tid] = {
            "id": tid,
            "type": 11,
            "name": name,
            "parent_id": CHANNEL_ID,
            "guild_id": GUILD_ID,
            "owner_id": BOT_ID,
            "message_count": 0,
            "member_count": 0,
            "rate_limit_per_user": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": NOW,
                "locked": False,
            },
        }
        return tid

    async def archive(self, thread_id: str, locked: bool = False) -> None:
        """Archive a thread (as Discord does after inactivity, or a moderator);
        a connected bot gets THREAD_UPDATE and drops it from its cache."""
        meta = self.threads[thread_id]["thread_metadata"]
        meta.update(archived=True, locked=locked, archive_timestamp=self.timestamp())
        await self._thread_update(thread_id)

    async def _thread_update(self, thread_id: str) -> None:
        if self.connected:
            await self.dispatch("THREAD_UPDATE", self.threads[thread_id])

    def _interaction(
        self,
        itype: int,
        user_id: str,
        channel_id: str,
        data: dict[str, Any],
        message: dict[str, Any] | None = None,
    ) -> tuple[FakeInteraction, dict[str, Any]]:
        iid = self.next_id()
        token = f"tok-{iid}"
        record = FakeInteraction(
            iid,
            token,
            itype,
            user_id,
            channel_id,
            self.now(),
            message_id=message["id"] if message else None,
        )
        self.interactions[iid] = record
        payload: dict[str, Any] = {
            "id": iid,
            "application_id": APP_ID,
            "type": itype,
            "token": token,
            "version": 1,
            "channel": self.threads.get(channel_id, {"id": channel_id, "type": 0}),
            "channel_id": channel_id,
            "guild_id": GUILD_ID,
            "member": {**self.member(self.users[user_id]), "permissions": PERMISSIONS},
            "data": data,
            "app_permissions": PERMISSIONS,
            "locale": "en-US",
            "guild_locale": "en-US",
            "attachment_size_limit": 10485760,
            "entitlements": [],
            "authorizing_integration_owners": {"0": GUILD_ID},
            "context": 0,
        }
        if message is not None:
            payload["message"] = message
        return record, payload

    async def slash(
        self,
        user_id: str,
        channel_id: str,
        subcommand: str,
        *,
        via: str | None = None,
        **options: str | int | float | bool,
    ) -> Pushed:
        """Push a `/mk <subcommand>` interaction (to the bot process with the token
        `via`; by default the newest connection); returns its id and token."""
        kinds = {bool: 5, int: 4, float: 10, str: 3}
        record, payload = self._interaction(
            2,
            user_id,
            channel_id,
            {
                "id": "920000000000000001",
                "name": "mk",
                "type": 1,
                "options": [
                    {
                        "name": subcommand,
                        "type": 1,
                        "options": [
                            {"name": k, "type": kinds[type(v)], "value": v}
                            for k, v in options.items()
                        ],
                    }
                ],
            },
        )
        await self.dispatch("INTERACTION_CREATE", payload, ws=self.connection(via))
        return Pushed(record.id, record.token)

    async def click(
        self,
        user_id: str,
        channel_id: str,
        message_id: str,
        custom_id: str,
        *,
        component_type: int = 2,
        values: list[str] | None = None,
        via: str | None = None,
    ) -> Pushed:
        """Push a component interaction (type 3) on a stored message (to the bot
        process with the token `via`); returns its id and token."""
        message = self.message(message_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        record, payload = self._interaction(
            3, user_id, channel_id, data, message=self.public(message)
        )
        await self.dispatch("INTERACTION_CREATE", payload, ws=self.connection(via))
        return Pushed(record.id, record.token)

    # --- looking at what the bot did ----------------------------------------------------

    def message(self, message_id: str) -> dict[str, Any]:
        for m in self.messages:
            if m["id"] == str(message_id):
                return m
        raise KeyError(f"no message {message_id}")

    def channel_messages(self, channel_id: str) -> list[dict[str, Any]]:
        """What a member sees in a channel, oldest first (no ephemeral messages)."""
        return [
            m
            for m in self.messages
            if m["channel_id"] == str(channel_id) and not m["flags"] & EPHEMERAL
        ]

    def answers(self, interaction: str | Pushed) -> list[dict[str, Any]]:
        """What the user who triggered an interaction sees as its answers, in order: the
        original response (unless it is still "thinking") and every later follow-up."""
        record = self._record(interaction)
        ids = ([record.original_id] if record.original_id else []) + [
            i for i in record.followup_ids if i != record.original_id
        ]
        out = []
        for mid in ids:
            with contextlib.suppress(KeyError):
                m = self.message(mid)
                if not m["flags"] & LOADING:
                    out.append(m)
        return out

    def followups(self, interaction: str | Pushed) -> list[dict[str, Any]]:
        """Messages posted to the interaction's token (`POST /webhooks/{app}/{token}`),
        in order; the first after a defer is the edited original response."""
        record = self._record(interaction)
        return [self.message(i) for i in record.followup_ids]

    def _record(self, interaction: str | Pushed) -> FakeInteraction:
        iid = interaction.id if isinstance(interaction, Pushed) else str(interaction)
        return self.interactions[iid]

    def public(self, message: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in message.items() if not k.startswith("_") and k not in PRIVATE_KEYS}

    # --- test controls ------------------------------------------------------------------

    def fail(
        self,
        method: str,
        path_glob: str,
        status: int,
        code: int = 0,
        times: int | None = None,
        message: str | None = None,
        *,
        allow_retried_status: bool = False,
    ) -> Failure:
        """Answer requests matching `method` ("*" for any) and `path_glob` (fnmatch on
        the path after /api/v10, e.g. "/channels/*/messages") with a Discord-shaped
        error, `times` times (None: until `clear_failures()`)."""
        if (status >= 500 or status == 429) and not allow_retried_status:
            raise ValueError(
                f"discord.py retries {status} for many seconds; pass allow_retried_status=True"
            )
        failure = Failure(
            method.upper(),
            path_glob,
            status,
            code,
            message or http.HTTPStatus(status).phrase,
            times,
        )
        self.failures.append(failure)
        return failure

    def clear_failures(self) -> None:
        self.failures.clear()

    def on_request(
        self,
        predicate: Callable[[str, str, Any], bool],
        action: Callable[[], Any],
        *,
        store_first: bool,
    ) -> Hook:
        """Once, for the first request where `predicate(method, path, body)` holds: with
        `store_first` the request takes effect (Discord got it) and then `action()` runs
        (it may be async); without, `action()` runs and the request has no effect. Either
        way the client gets no answer: the connection is dropped."""
        hook = Hook(predicate, action, store_first)
        self.hooks.append(hook)
        return hook

    # --- REST ---------------------------------------------------------------------------

    async def cdn(self, request: web.Request) -> web.Response:
        with contextlib.suppress(KeyError):
            m = self.message(request.match_info["mid"])
            for f in m["_files"]:
                if f.filename == request.match_info["name"]:
                    return web.Response(body=f.data)
        return web.Response(status=404)

    async def rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body: Any = None
        files: list[Upload] = []
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if part.name == "payload_json":  # type: ignore[union-attr]
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    files.append(Upload(part.filename or "", await part.read()))  # type: ignore[union-attr]
        elif request.can_read_body:
            body = await request.json()
        auth = request.headers.get("Authorization", "")
        record = Request(
            request.method,
            path,
            body,
            files,
            dict(request.query),
            auth.removeprefix("Bot ") if auth else None,
        )
        self.requests.append(record)
        hook = next(
            (
                h
                for h in self.hooks
                if not h.fired.is_set() and h.predicate(request.method, path, body)
            ),
            None,
        )
        if hook is not None:
            hook.fired.set()
            hook.request = record
            if hook.store_first:
                self.respond(record)  # it takes effect; the answer is never sent
            result = hook.action()
            if inspect.isawaitable(result):
                await result
            hook.done.set()
            return await self._drop(request)
        response = self.respond(record)
        record.status = response.status
        return response

    async def _drop(self, request: web.Request) -> web.StreamResponse:
        """Close the connection without an answer (the client sees a disconnect)."""
        transport = request.transport
        if transport is not None:
            transport.abort()
        await self._release.wait()
        raise asyncio.CancelledError

    def respond(self, r: Request) -> web.Response:
        try:
            for failure in self.failures:
                if failure.method in ("*", r.method) and fnmatch.fnmatchcase(
                    r.path, failure.path_glob
                ):
                    failure.hits += 1
                    if failure.times is not None and failure.hits >= failure.times:
                        self.failures.remove(failure)
                    raise DiscordError(failure.status, failure.code, failure.message)
            data = self.route(r)
        except DiscordError as error:
            return _json(error.body(), error.status)
        except Exception as error:  # a bug in the fake: never a 500 (discord.py retries)
            self.internal_errors.append(f"{r.method} {r.path}: {error!r}")
            return _json({"code": 0, "message": f"fake_discord failed: {error!r}"}, 400)
        if data is None:
            return web.Response(status=204)
        return _json(data)

    def route(self, r: Request) -> Any:
        """The answer's JSON (None: 204 No Content), or raise DiscordError."""
        m, path, body = r.method, r.path, r.json
        parts = path.strip("/").split("/")
        bot = user(BOT_ID, "mountain-king", bot=True)
        if path == "/users/@me" and m == "GET":
            return bot
        if path == "/oauth2/applications/@me":
            return {
                "id": APP_ID,
                "name": "mk",
                "icon": None,
                "description": "",
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": bot,
                "verify_key": "0",
                "flags": 0,
                "interactions_endpoint_url": None,
            }
        if path in ("/gateway", "/gateway/bot"):
            return {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        if parts[0] == "applications" and parts[-1] == "commands" and m == "PUT":
            self.commands = [
                {**c, "id": self.next_id(), "application_id": APP_ID, "version": "1"} for c in body
            ]
            if len(parts) == 5:  # /applications/{app}/guilds/{g}/commands
                self.commands = [{**c, "guild_id": parts[3]} for c in self.commands]
            return self.commands
        if parts[0] == "interactions" and len(parts) == 4 and parts[3] == "callback":
            return self.callback(parts[1], parts[2], body or {}, r.files)
        if parts[0] == "webhooks" and len(parts) >= 3:
            return self.webhook(r, parts)
        if parts[0] == "users" and len(parts) == 3 and parts[1:] == ["@me", "channels"]:
            uid = str(body["recipient_id"])
            cid = self.dm_channels.setdefault(uid, self.next_id())
            return {"id": cid, "type": 1, "recipients": [self.users.get(uid, user(uid, uid))]}
        if parts[0] == "users" and len(parts) == 2 and m == "GET":
            if parts[1] not in self.users:
                raise DiscordError(404, 10013, "Unknown User")
            return self.users[parts[1]]
        if parts[0] == "channels":
            return self.channel_route(r, parts)
        return {}

    # --- channels -----------------------------------------------------------------------

    def channel_route(self, r: Request, parts: list[str]) -> Any:
        m, body = r.method, r.json or {}
        cid = parts[1]
        if len(parts) == 2:
            if m == "GET":
                return self.channel_object(cid)
            if m == "PATCH":
                return self.edit_channel(cid, body)
        if len(parts) == 3 and parts[2] == "typing":
            return None
        if len(parts) == 3 and parts[2] == "messages":
            if m == "POST":
                return self.create_message(cid, body, r.files, r.auth)
            if m == "GET":
                return self.history(cid, r.query)
        if len(parts) == 4 and parts[2] == "messages":
            message = self._find(cid, parts[3])
            if m == "GET":
                return self.public(message)
            self._check_not_archived(cid)
            if m == "PATCH":
                return self.public(self.edit_message(message, body, r.files))
            if m == "DELETE":
                self.messages.remove(message)
                self.deleted.append(message)
                return None
        return {}

    def channel_object(self, cid: str) -> dict[str, Any]:
        if cid in self.threads:
            return self.threads[cid]
        for uid, dm in self.dm_channels.items():
            if dm == cid:
                return {"id": cid, "type": 1, "recipients": [self.users.get(uid, user(uid, uid))]}
        return self.text_channel(cid)

    def edit_channel(self, cid: str, body: dict[str, Any]) -> dict[str, Any]:
        if cid not in self.threads:
            return {**self.text_channel(cid), **{k: v for k, v in body.items() if k == "name"}}
        thread = self.threads[cid]
        meta = thread["thread_metadata"]
        if meta["archived"] and body.get("archived", True):
            raise DiscordError(400, 50083, "Thread is archived")
        for key in ("archived", "locked", "auto_archive_duration"):
            if key in body:
                if key == "archived" and body[key] != meta["archived"]:
                    meta["archive_timestamp"] = self.timestamp()
                meta[key] = body[key]
        for key in ("name", "rate_limit_per_user"):
            if key in body:
                thread[key] = body[key]
        self._schedule(self._thread_update(cid))
        return thread

    def _check_not_archived(self, cid: str) -> None:
        thread = self.threads.get(cid)
        if thread is not None and thread["thread_metadata"]["archived"]:
            raise DiscordError(400, 50083, "Thread is archived")

    def create_message(
        self, cid: str, body: dict[str, Any], files: list[Upload], auth: str | None
    ) -> dict[str, Any]:
        thread = self.threads.get(cid)
        if thread is not None and thread["thread_metadata"]["archived"]:
            meta = thread["thread_metadata"]
            if not self.send_unarchives or meta["locked"]:
                raise DiscordError(400, 50083, "Thread is archived")
            meta.update(archived=False, archive_timestamp=self.timestamp())
            self._schedule(self._thread_update(cid))
        _validate_message(body, files)
        nonce = body.get("nonce")
        author = BOT_ID  # every request carries the bot's token: one author
        if nonce is not None and body.get("enforce_nonce"):
            for earlier in reversed(self.messages):
                if (
                    earlier["channel_id"] == cid
                    and earlier["_nonce"] == str(nonce)
                    and earlier["author"]["id"] == author
                    and self.now() - earlier["_created"] <= self.nonce_window
                ):
                    self.dedup_hits.append(earlier)
                    return {**self.public(earlier), "nonce": earlier["_nonce"]}
        message = self.store_message(cid, body, files)
        out = self.public(message)
        if nonce is not None:
            out["nonce"] = str(nonce)
        return out

    def history(self, cid: str, query: dict[str, str]) -> list[dict[str, Any]]:
        try:
            limit = int(query.get("limit", 50))
        except ValueError:
            limit = 0
        if not 1 <= limit <= 100:
            raise DiscordError(
                400,
                50035,
                "Invalid Form Body",
                {"limit": {"_errors": [{"code": "NUMBER_TYPE_MAX", "message": "1 to 100"}]}},
            )
        visible = sorted(self.channel_messages(cid), key=lambda m: int(m["id"]))
        if "around" in query:
            pivot = int(query["around"])
            older = [x for x in visible if int(x["id"]) < pivot][-(limit // 2) :]
            newer = [x for x in visible if int(x["id"]) >= pivot][: limit - len(older)]
            chosen = older + newer
        elif "after" in query:
            chosen = [x for x in visible if int(x["id"]) > int(query["after"])][:limit]
        else:
            if "before" in query:
                visible = [x for x in visible if int(x["id"]) < int(query["before"])]
            chosen = visible[-limit:]
        return [self.public(x) for x in reversed(chosen)]

    def _find(self, cid: str, mid: str) -> dict[str, Any]:
        for message in self.messages:
            if message["id"] == mid and message["channel_id"] == cid:
                return message
        raise DiscordError(404, 10008, "Unknown Message")

    # --- interactions -------------------------------------------------------------------

    def callback(
        self, iid: str, token: str, body: dict[str, Any], files: list[Upload]
    ) -> dict[str, Any]:
        record = self.interactions.get(iid)
        expired = (
            record is not None
            and self.callback_ttl is not None
            and self.now() - record.created > self.callback_ttl
        )
        if record is None or record.token != token or expired:
            raise DiscordError(404, 10062, "Unknown interaction")
        if record.callbacks:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        rtype = int(body.get("type", 0))
        data = body.get("data") or {}
        record.callbacks.append(rtype)
        message: dict[str, Any] | None = None
        if rtype in (4, 5):
            record.ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            record.awaiting_first_followup = rtype == 5
            content = data if rtype == 4 else {"flags": int(data.get("flags") or 0) | LOADING}
            message = self.store_message(
                record.channel_id, content, files, token=token, itype=record.type
            )
            record.original_id = message["id"]
        elif rtype == 7 and record.message_id:  # update the message the component is on
            message = self.edit_message(self.message(record.message_id), data, files)
        elif rtype == 6 and record.message_id:
            message = self.message(record.message_id)
        return {
            "interaction": {
                "id": iid,
                "type": record.type,
                "response_message_id": message["id"] if message else None,
                "response_message_loading": rtype == 5,
                "response_message_ephemeral": record.ephemeral,
            },
            "resource": {"type": rtype, **({"message": self.public(message)} if message else {})},
        }

    def webhook(self, r: Request, parts: list[str]) -> Any:
        """POST /webhooks/{app}/{token}, and GET/PATCH/DELETE
        /webhooks/{app}/{token}/messages/{id|@original}."""
        token = parts[2]
        record = next((i for i in self.interactions.values() if i.token == token), None)
        if (
            parts[1] != APP_ID
            or record is None
            or not record.callbacks  # the webhook exists once the interaction is acked
            or self.now() - record.created > self.token_ttl
        ):
            raise DiscordError(404, 10015, "Unknown Webhook")
        body = r.json or {}
        if len(parts) == 3 and r.method == "POST":
            if record.awaiting_first_followup and record.original_id:
                # the first follow-up after a defer replaces the "thinking" message;
                # its flags are ignored (the ACK's win)
                record.awaiting_first_followup = False
                original = self.message(record.original_id)
                flags = EPHEMERAL if record.ephemeral else 0
                message = self.edit_message(original, {**body, "flags": flags}, r.files)
            else:
                message = self.store_message(
                    record.channel_id, body, r.files, token=token, itype=record.type
                )
            record.followup_ids.append(message["id"])
            wait = r.query.get("wait", "false").lower() in ("1", "true")
            return self.public(message) if wait else None
        if len(parts) == 5 and parts[3] == "messages":
            mid = parts[4]
            if mid == "@original":
                mid = record.original_id or record.message_id or ""
            try:
                message = self.message(mid)
            except KeyError:
                raise DiscordError(404, 10008, "Unknown Message") from None
            if r.method == "GET":
                return self.public(message)
            if r.method == "PATCH":
                if mid == record.original_id:
                    record.awaiting_first_followup = False
                    body = {**body, "flags": message["flags"] & ~LOADING}
                return self.public(self.edit_message(message, body, r.files))
            if r.method == "DELETE":
                self.messages.remove(message)
                self.deleted.append(message)
                return None
        return {}

    # --- messages -----------------------------------------------------------------------

    def _attachments(self, mid: str, files: list[Upload]) -> list[dict[str, Any]]:
        return [
            {
                "id": self.next_id(),
                "filename": f.filename,
                "size": len(f.data),
                "url": f"http://127.0.0.1:{self.port}/cdn/{mid}/{f.filename}",
                "proxy_url": f"http://127.0.0.1:{self.port}/cdn/{mid}/{f.filename}",
                **({"content_type": "image/png"} if f.data[:4] == b"\x89PNG" else {}),
            }
            for f in files
        ]

    def store_message(
        self,
        channel_id: str,
        body: dict[str, Any],
        files: list[Upload],
        *,
        token: str | None = None,
        itype: int | None = None,
    ) -> dict[str, Any]:
        """Store a new message and return it (with the fake's "_" fields:
        `_files`, `_nonce`, `_created` on the fake's clock, `_token` for messages
        sent through an interaction)."""
        mid = self.next_id()
        message: dict[str, Any] = {
            "id": mid,
            "channel_id": channel_id,
            "type": 20 if itype == 2 else 0,
            "content": body.get("content") or "",
            "author": user(BOT_ID, "mountain-king", bot=True),
            "timestamp": self.timestamp(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "embeds": body.get("embeds") or [],
            "pinned": False,
            "flags": int(body.get("flags") or 0),
            "components": body.get("components") or [],
            "attachments": self._attachments(mid, files),
            "allowed_mentions": body.get("allowed_mentions"),
            "_files": files,
            "_nonce": str(body["nonce"]) if body.get("nonce") is not None else None,
            "_created": self.now(),
            "_token": token,
        }
        if token is not None:
            message["webhook_id"] = APP_ID
        self.messages.append(message)
        if channel_id in self.threads:
            self.threads[channel_id]["message_count"] += 1
        return message

    def edit_message(
        self, message: dict[str, Any], body: dict[str, Any], files: list[Upload]
    ) -> dict[str, Any]:
        for key in ("content", "components", "embeds", "flags", "allowed_mentions"):
            if key in body:
                message[key] = body[key] if body[key] is not None else message[key]
        if "attachments" in body or files:
            keep = {str(a.get("id")) for a in body.get("attachments") or []}
            old = [a for a in message["attachments"] if a["id"] in keep]
            kept_files = [
                f for f in message["_files"] if any(a["filename"] == f.filename for a in old)
            ]
            message["attachments"] = old + self._attachments(message["id"], files)
            message["_files"] = kept_files + files
        message["edited_timestamp"] = self.timestamp()
        return message

    def _schedule(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def shard_of(guild_id: str, shard_count: int) -> int:
    """The shard that serves a guild (Discord's rule)."""
    return (int(guild_id) >> 22) % shard_count


def _validate_message(body: dict[str, Any], files: list[Upload]) -> None:
    errors: dict[str, Any] = {}
    nonce = body.get("nonce")
    if nonce is not None and len(str(nonce)) > 25:
        errors["nonce"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "<= 25"}]}
    if len(body.get("content") or "") > 2000:
        errors["content"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "<= 2000"}]}
    if errors:
        raise DiscordError(400, 50035, "Invalid Form Body", errors)
    if not (body.get("content") or files or body.get("embeds") or body.get("components")):
        raise DiscordError(400, 50006, "Cannot send an empty message")


def _json(data: Any, status: int = 200) -> web.Response:
    # exactly "application/json": discord.py compares the whole header
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )
