"""A command's options reach the service as `Asked`: the kind of action and the rules'
builder. The moment is judged before the options are read (a dig in the gates is
refused as a dig, whatever its options say), and a previewed action is the one its
notation, carried by Confirm, plays."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest
from service_helpers import (
    game_in_play,
    open_service,
    play_moves,
    record_for,
    started_game,
    user_of,
)

from bot.service import Asked
from rules import asked
from rules.actions import NAME, Dig, format_cells, parse_action
from rules.errors import RulesError
from rules.legal import legal_actions


async def test_the_moment_is_judged_before_a_commands_options_are_read(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info = await started_game(service)
        state = (await service.load(info.id)).state
        assert state is not None and state.phase == "gates" and state.gate_seat is not None
        user = user_of(info, state.gate_seat)
        bad_dig = Asked("dig", partial(asked.dig, "I2", "garbage", "coin"))
        for attempt in (
            service.preview(info.id, user, bad_dig),
            service.act(info.id, user, bad_dig),
        ):
            with pytest.raises(RulesError) as refused:
                await attempt
            assert (
                str(refused.value) == "The turns have not begun: the gates are still being placed."
            )
        # in its moment, the options are read: a bad one is refused for what it is
        bad_gate = Asked("gate", partial(asked.gate, "W1 W2"))
        with pytest.raises(RulesError) as refused:
            await service.act(info.id, user, bad_gate)
        assert str(refused.value) == "Unexpected characters in 'W1 W2'."
        assert (await service.load(info.id)).seq == 0


async def test_a_previewed_dig_is_the_action_its_confirm_plays(tmp_path: Path) -> None:
    async with open_service(tmp_path / "g.db") as service:
        info, played = await game_in_play(service)
        for move in record_for(info).moves[played:]:
            loaded = await service.load(info.id)
            state = loaded.state
            assert state is not None and state.current_seat is not None
            seat = state.current_seat
            digs = [a for a in legal_actions(state, seat, "dig") if isinstance(a, Dig)]
            if any(not a.workshops for a in digs):
                break
            await play_moves(service, info, [move])
        dig = next(a for a in digs if not a.workshops)
        pedestal = None if dig.pedestal is None else dig.pedestal.value
        options = (dig.shape, format_cells(dig.cells, dig.anchor), NAME[dig.mineral], pedestal)
        judged = await service.preview(
            info.id, user_of(info, seat), Asked("dig", partial(asked.dig, *options))
        )
        assert judged.legal and judged.seq == loaded.seq
        assert judged.action == dig == parse_action(judged.notation)
        # Confirm carries the notation and plays it at the version judged
        await service.act(info.id, user_of(info, seat), judged.notation, expected_seq=judged.seq)
        entries = await service.history.log(info.id, user_of(info, seat))
        assert entries[-1].notation == judged.notation == str(dig)
