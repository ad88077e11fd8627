"""The private answer a command owed and could not give itself (its process stopped
before answering): sent later with the interaction's token, the action told by its
game's face, in the language the player used when they acted. One maker for every
game: what differs is only the face that tells the story."""

from __future__ import annotations

from bot.courier import Maker, Outgoing
from bot.features.base import Feature
from bot.i18n.catalogue import translator_for
from bot.service import GameInfo, Owed
from bot.service.owed import Reply
from bot.store import OwedKind
from bot.texts import NO_MENTIONS, done_text


class Replies(Feature):
    """The owed private answers (no commands of its own)."""

    def makers(self) -> dict[OwedKind, Maker]:
        return {"reply": self.reply}

    async def reply(self, owed: Owed, info: GameInfo) -> Outgoing | None:
        reply = owed.payload
        assert isinstance(reply, Reply)
        tell = self.bot.face_of(info.rules).tell
        return Outgoing(
            done_text(reply, tell, messages=translator_for(reply.language)),
            mentions=NO_MENTIONS,
            followup=(reply.application_id, reply.token),
        )
