"""The "you're next" heads-up (bot/service/heads_up.py): a player who opted in is told
once when the player before them starts their turn, never twice for one turn, and
nobody who did not opt in is; nor is a player in their quiet hours."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from service_helpers import FakeClock, game_in_play, open_service, play_moves, record_for, user_of

from bot.service.heads_up import HeadsUp
from bot.store import NotificationPrefs


async def test_a_player_who_opted_in_hears_once_when_the_player_before_them_starts(
    tmp_path: Path,
) -> None:
    async with open_service(tmp_path / "g.db", clock=FakeClock()) as service:
        heads = HeadsUp(service.store, service.rules, service.now, service.duties)
        info, played = await game_in_play(service)
        state = (await service.load(info.id)).state
        assert state is not None and state.turn is not None
        now = state.turn.seat
        other = 1 - now
        assert await heads.due() == []  # nobody opted in: nothing read, nothing told
        await service.notifications.set_heads_up(user_of(info, other), True)
        assert await service.notifications.heads_up(user_of(info, other))
        (told,) = await heads.due()
        assert (told.user_id, told.game.id, told.starting.seat) == (
            user_of(info, other),
            info.id,
            now,
        )
        assert await heads.due() == []  # once a turn
        # the turns go on: the other's own turn tells nobody; the next one tells them again
        moves = record_for(info).moves[played:]
        seen: list[int] = []
        for move in moves:
            await play_moves(service, info, [move])
            seen += [t.starting.seat for t in await heads.due()]
            state = (await service.load(info.id)).state
            assert state is not None
            if seen and state.turn is not None and state.turn.seat == now:
                break
        assert seen == [now]
        await service.notifications.set_heads_up(user_of(info, other), False)
        assert not await service.notifications.heads_up(user_of(info, other))


async def test_no_heads_up_comes_in_the_players_quiet_hours(tmp_path: Path) -> None:
    clock = FakeClock()
    async with open_service(tmp_path / "g.db", clock=clock) as service:
        heads = HeadsUp(service.store, service.rules, service.now, service.duties)
        info, _ = await game_in_play(service)
        state = (await service.load(info.id)).state
        assert state is not None and state.turn is not None
        user = user_of(info, 1 - state.turn.seat)
        await service.notifications.set_heads_up(user, True)
        # quiet from this hour for two hours, in Warsaw
        hour = clock.now.astimezone(ZoneInfo("Europe/Warsaw")).hour
        quiet = NotificationPrefs(
            user, quiet_start=hour * 60, quiet_end=(hour + 2) % 24 * 60, timezone="Europe/Warsaw"
        )
        await service.notifications.set_prefs(quiet)
        assert await heads.due() == []
        # passed over, not told when the quiet hours end
        clock.advance(timedelta(hours=3))
        assert await heads.due() == []
