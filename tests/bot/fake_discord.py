"""A small stand-in for Discord's REST API and gateway on 127.0.0.1, so the real bot
can be tested over the wire (aiohttp, multipart uploads, the gateway handshake)
without reaching Discord. It speaks just enough of both, records every request, and
can push an interaction to the bot. See ../../../shared/DISCORD-TESTING.md for the
parts of the protocol it follows."""

from __future__ import annotations

import asyncio
import itertools
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = "900000000000000001"
BOT_ID = "900000000000000002"
GUILD_ID = "900000000000000010"
CHANNEL_ID = "900000000000000011"
NOW = datetime(2026, 11, 21, 12, 0, tzinfo=UTC).isoformat()
PERMISSIONS = "2248473465835073"


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
    path: str
    json: Any
    files: list[Upload] = field(default_factory=list)


class FakeDiscord:
    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.messages: list[dict[str, Any]] = []
        self.users: dict[str, dict[str, Any]] = {}
        self.threads: dict[str, dict[str, Any]] = {}
        self._ids = itertools.count(910000000000000000)
        self._ws: web.WebSocketResponse | None = None
        self._seq = itertools.count(1)
        self.identified = asyncio.Event()
        self.runner: web.AppRunner | None = None
        self.port = 0

    def next_id(self) -> str:
        return str(next(self._ids))

    # --- server -------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self.gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self.rest)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # --- gateway ------------------------------------------------------------------------

    async def gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._ws = ws
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 45000}})
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            if data["op"] == 1:
                await ws.send_json({"op": 11})
            elif data["op"] == 2:
                await self.dispatch(
                    "READY",
                    {
                        "v": 10,
                        "user": user(BOT_ID, "mountain-king", bot=True),
                        "session_id": "s1",
                        "resume_gateway_url": self.gateway_url,
                        "guilds": [{"id": GUILD_ID, "unavailable": True}],
                        "application": {"id": APP_ID, "flags": 0},
                    },
                )
                await self.dispatch("GUILD_CREATE", self.guild())
                self.identified.set()
        return ws

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        assert self._ws is not None
        await self._ws.send_json({"op": 0, "t": event, "s": next(self._seq), "d": data})

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
            "channels": [
                {
                    "id": CHANNEL_ID,
                    "type": 0,
                    "name": "games",
                    "position": 0,
                    "permission_overwrites": [],
                    "nsfw": False,
                    "parent_id": None,
                }
            ],
            "threads": list(self.threads.values()),
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

    async def slash(self, user_id: str, channel_id: str, subcommand: str, **options: str) -> str:
        """Push a `/mk <subcommand>` interaction; returns its id."""
        iid = self.next_id()
        await self.dispatch(
            "INTERACTION_CREATE",
            {
                "id": iid,
                "application_id": APP_ID,
                "type": 2,
                "token": f"tok{iid}",
                "version": 1,
                "channel": self.threads.get(channel_id, {"id": channel_id, "type": 0}),
                "channel_id": channel_id,
                "guild_id": GUILD_ID,
                "member": {**self.member(self.users[user_id]), "permissions": PERMISSIONS},
                "data": {
                    "id": "920000000000000001",
                    "name": "mk",
                    "type": 1,
                    "options": [
                        {
                            "name": subcommand,
                            "type": 1,
                            "options": [
                                {"name": k, "type": 3, "value": v} for k, v in options.items()
                            ],
                        }
                    ],
                },
                "app_permissions": PERMISSIONS,
                "locale": "en-US",
                "guild_locale": "en-US",
                "attachment_size_limit": 10485760,
                "entitlements": [],
                "authorizing_integration_owners": {"0": GUILD_ID},
                "context": 0,
            },
        )
        return iid

    # --- REST ---------------------------------------------------------------------------

    async def rest(self, request: web.Request) -> web.Response:
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
        self.requests.append(Request(request.method, path, body, files))
        return self.answer(request.method, path, body, files)

    def answer(self, method: str, path: str, body: Any, files: list[Upload]) -> web.Response:
        bot = user(BOT_ID, "mountain-king", bot=True)
        if path == "/users/@me":
            return _json(bot)
        if path == "/oauth2/applications/@me":
            return _json(
                {
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
            )
        if (
            path.startswith(f"/applications/{APP_ID}/")
            and path.endswith("/commands")
            and method == "PUT"
        ):
            return _json(
                [
                    {**c, "id": self.next_id(), "application_id": APP_ID, "version": "1"}
                    for c in body
                ]
            )
        if path.endswith("/callback"):
            iid = path.split("/")[2]
            rtype = body["type"] if body else 5
            message = self.store_message("0", (body or {}).get("data") or {}, files)
            return _json(
                {
                    "interaction": {
                        "id": iid,
                        "type": 2,
                        "response_message_id": message["id"],
                        "response_message_loading": rtype == 5,
                        "response_message_ephemeral": False,
                    },
                    "resource": {"type": rtype, "message": message},
                }
            )
        if path.startswith("/webhooks/"):
            return _json(self.store_message("0", body or {}, files))
        if path.startswith("/channels/") and path.endswith("/messages") and method == "POST":
            return _json(self.store_message(path.split("/")[2], body or {}, files))
        if path.startswith("/channels/") and method == "GET" and path.count("/") == 2:
            cid = path.split("/")[2]
            return _json(
                self.threads.get(
                    cid,
                    {
                        "id": cid,
                        "type": 0,
                        "guild_id": GUILD_ID,
                        "name": "games",
                        "position": 0,
                        "permission_overwrites": [],
                    },
                )
            )
        return _json({})

    def store_message(
        self, channel_id: str, body: dict[str, Any], files: list[Upload]
    ) -> dict[str, Any]:
        mid = self.next_id()
        message = {
            "id": mid,
            "channel_id": channel_id,
            "type": 0,
            "content": body.get("content") or "",
            "author": user(BOT_ID, "mountain-king", bot=True),
            "timestamp": NOW,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "embeds": [],
            "pinned": False,
            "flags": body.get("flags", 0),
            "components": body.get("components", []),
            "attachments": [
                {
                    "id": self.next_id(),
                    "filename": f.filename,
                    "size": len(f.data),
                    "url": f"http://127.0.0.1:{self.port}/cdn/{f.filename}",
                    "proxy_url": f"http://127.0.0.1:{self.port}/cdn/{f.filename}",
                }
                for f in files
            ],
            "allowed_mentions": body.get("allowed_mentions"),
        }
        self.messages.append({**message, "_files": files})
        return message


def _json(data: Any) -> web.Response:
    # exactly "application/json": discord.py compares the whole header
    return web.Response(
        body=json.dumps(data).encode(), headers={"Content-Type": "application/json"}
    )
