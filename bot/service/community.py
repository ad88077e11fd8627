"""A server's community: each player's pace and stats, and OpenSkill ratings with the
server's leaderboard (`service.community`, a part of the service).

Ratings (the `openskill` package, the Plackett-Luce model with its defaults): a game
is rated once, after it ended (status over: an abandoned game never is), in the order
the games ended. Only people are rated: a seat the AI holds is left out, and a team
is rated as a team of its people. A game is rated when at least two of its scoring
lines (players, or teams) hold a person; the others are looked at and left unrated.
Each line's rank comes from the outcome: the winners first, then by total honour
(equal totals share a rank). Rating is an owed duty: the scheduler's round (and any
board or card asked for) rates the games that ended since, claimed as the duty
`ratings` so that only one process rates at a time and no update is lost.

The pace is read from the log's timestamps: a turn is the user's from the entry that
ended the turn before it (anyone's) until their entry that ends it; its median, the
turns played and the hours of the day (in the user's time zone) they act at. Nothing
compares one player's pace with another's.
"""

from __future__ import annotations

import asyncio
import logging
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Generic

from openskill.models import PlackettLuce, PlackettLuceRating

from bot.i18n.catalogue import N_
from bot.service.arguments import ABSENT, check_arguments
from bot.service.duties import Duties
from bot.service.errors import InvalidSettingError, ServiceError
from bot.service.loading import load
from bot.service.notifications import Notifications
from bot.service.protocol import A, GameRules, S
from bot.service.reminders import zone
from bot.service.shelf import Shelf, shelf_of
from bot.store import GameRecord, SeatRecord, Store, StoreError
from bot.store.community import Beat, RatingRecord

log = logging.getLogger("bot.service.community")

MODEL = PlackettLuce()
# the leaderboard: how many it shows, and the rated games a player needs to be on it
BOARD_SIZE = 10
LEAST_GAMES = 3
# games rated by one sweep (the rest at the next)
RATE_BATCH = 200
# a sweep looks back this far before the last one (games ending while it ran, clocks
# of several processes a little apart)
SWEEP_OVERLAP = timedelta(hours=1)
SWEEP_FROM = datetime(1970, 1, 1, tzinfo=UTC)


class StatsError(ServiceError):
    """No card or board to show: outside a server, nobody rated, a player who never
    played here or who keeps their stats to themselves."""

    code = "stats"


@dataclass(frozen=True, slots=True)
class Line:
    """One scoring line of a finished game as the ratings read it: the people in it
    (seat order), whether it won, and its total."""

    users: tuple[int, ...]
    won: bool
    total: int


@dataclass(frozen=True, slots=True)
class Standing:
    """A player on a server's board: their place (1 is first), rating and games."""

    place: int
    user_id: int
    ordinal: float
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The server's best (`top`), the asker's own line (None: not rated here, or
    hidden) and how many rated games they still need to be ranked."""

    guild_id: int
    least_games: int
    top: tuple[Standing, ...]
    ranked: int
    yours: Standing | None
    your_games: int
    hidden: bool


@dataclass(frozen=True, slots=True)
class Pace:
    """How a player plays: the turns they finished, the median time from a turn
    becoming theirs to its end (None: no turn measured), and how many of their
    actions fell in each hour of the day in their time zone (24 counts)."""

    turns: int
    median: timedelta | None
    hours: tuple[int, ...]
    timezone: str

    def usual_hours(self, width: int = 3) -> tuple[int, int] | None:
        """The `width` hours of the day (start, end; local, may wrap past midnight)
        in which they act most; None without any action."""
        if not any(self.hours):
            return None
        counts = self.hours

        def window(h: int) -> tuple[int, int]:
            return sum(counts[(h + k) % 24] for k in range(width)), -h

        best = max(range(24), key=window)
        return best, (best + width) % 24


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's card on a server."""

    user_id: int
    guild_id: int
    finished: int
    abandoned: int
    playing: int
    colour: str | None
    pace: Pace
    rating: Standing | None
    rated_games: int
    wins: int
    hidden: bool
    # how many players the board shows (with `LEAST_GAMES`)
    ranked: int


def lines_of(outcome: Mapping[str, Any], seats: Sequence[SeatRecord]) -> list[Line]:
    """The outcome's scoring lines (`breakdown`: each line's `seats` and `total`, and
    the `winning_seats`) with the people in each: seats the AI holds left out, and so
    lines without a person."""
    people = {s.seat: s.user_id for s in seats if not s.ai and s.user_id is not None}
    winners = set(outcome.get("winning_seats", ()))
    out = []
    for line in outcome.get("breakdown", ()):
        line_seats = [int(s) for s in line["seats"]]
        users = tuple(people[s] for s in line_seats if s in people)
        if users:
            out.append(Line(users, set(line_seats) <= winners, int(line["total"])))
    return out


def ranks(lines: Sequence[Line]) -> list[int]:
    """Each line's rank (1 is first): the winners first, then by total; lines level
    on both share a rank."""
    keys = [(line.won, line.total) for line in lines]
    return [1 + sum(other > key for other in keys) for key in keys]


def rated(
    lines: Sequence[Line], ratings: Mapping[int, RatingRecord], guild_id: int, at: datetime
) -> list[RatingRecord]:
    """The new ratings of the people of a finished game's lines (from their `ratings`,
    the model's first rating for a newcomer); none if fewer than two lines hold people."""
    if len(lines) < 2:
        return []

    def current(user: int) -> PlackettLuceRating:
        held = ratings.get(user)
        return MODEL.rating() if held is None else MODEL.rating(mu=held.mu, sigma=held.sigma)

    teams = [[current(u) for u in line.users] for line in lines]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks(lines)])
    out = []
    for line, team in zip(lines, after, strict=True):
        for user, new in zip(line.users, team, strict=True):
            held = ratings.get(user)
            games, wins = (0, 0) if held is None else (held.games, held.wins)
            out.append(
                RatingRecord(
                    guild_id, user, new.mu, new.sigma, new.ordinal(), games + 1, wins + line.won, at
                )
            )
    return out


def pace_of(beats: Sequence[Beat], user_id: int, timezone: str) -> Pace:
    """The user's pace from the beats of their games (see the module's docstring)."""
    tz = zone(timezone)
    durations: list[float] = []
    hours = [0] * 24
    turns = 0
    game, since = None, None
    for beat in beats:
        if beat.game_id != game:
            game, since = beat.game_id, None
        if beat.user_id == user_id:
            hours[beat.at.astimezone(tz).hour] += 1
        if not beat.ends_turn:
            continue
        if beat.user_id == user_id:
            turns += 1
            if since is not None:
                durations.append(max(0.0, (beat.at - since).total_seconds()))
        since = beat.at
    median = timedelta(seconds=statistics.median(durations)) if durations else None
    return Pace(turns, median, tuple(hours), timezone)


class Community(Generic[S, A]):
    """`service.community`: a player's stats, the server's leaderboard, hiding from
    both, and rating the games that ended (a duty of the scheduler)."""

    def __init__(
        self,
        store: Store,
        rules: GameRules[S, A] | Shelf[S, A, Any],
        clock: Callable[[], datetime],
        duties: Duties,
        notifications: Notifications,
    ) -> None:
        self.store = store
        self.games = shelf_of(rules)
        self._clock = clock
        self._duties = duties
        self._notifications = notifications
        self._lock = asyncio.Lock()
        # this process's last sweep began here (None: never; the first looks at all)
        self._swept: datetime | None = None

    # --- rating finished games ---------------------------------------------------------

    async def rate_finished(self) -> int:
        """Rate the games that ended since the last sweep, oldest end first; returns
        how many were looked at. Only one process rates at a time (the duty
        `ratings`); a game is marked as looked at in the write that rates it, so none
        is rated twice."""
        async with self._lock:
            began = self._clock()
            since = SWEEP_FROM if self._swept is None else self._swept - SWEEP_OVERLAP
            # a read first: a round with nothing to rate writes nothing (no claim)
            if not await self.store.unrated_games(since, limit=1):
                self._swept = began
                return 0
            async with self._duties.holding("ratings") as held:
                if held is None:
                    return 0
                games = await self.store.unrated_games(since, limit=RATE_BATCH)
                for game in games:
                    await self._rate(game)
            if len(games) < RATE_BATCH:
                self._swept = began
            return len(games)

    async def _rate(self, game: GameRecord) -> None:
        """Rate one finished game (or mark it looked at and not rated). A game that
        cannot be read or whose outcome makes no sense is logged and left unrated, so
        it never holds up the games that ended after it; a store that fails raises."""
        now = self._clock()
        new: list[RatingRecord] = []
        lines: list[Line] = []
        try:
            loaded = await load(self.store, self.games, game.id)
            outcome = None if loaded.state is None else loaded.rules.outcome(loaded.state)
            if outcome is not None and game.guild_id is not None:
                lines = lines_of(outcome, loaded.seats)
        except StoreError:
            raise
        except Exception as exc:  # a damaged game: looked at, never rated
            log.warning("game %s: not rated (%s)", game.id, exc)
        if lines and game.guild_id is not None:
            users = [u for line in lines for u in line.users]
            held = await self.store.ratings(game.guild_id, users)
            new = rated(lines, held, game.guild_id, now)
        await self.store.rate_game(game.id, game.guild_id, new, at=now)

    # --- the board and the cards --------------------------------------------------------

    async def leaderboard(
        self, guild_id: int | None, user_id: int, *, least_games: int = LEAST_GAMES
    ) -> Leaderboard:
        """The server's best `BOARD_SIZE` players with at least `least_games` rated
        games (players who hide their stats left out), and the asker's own place."""
        check_arguments(ABSENT, user_id)
        guild = _server(guild_id)
        if not 1 <= least_games <= 1000:
            raise InvalidSettingError(N_("The least number of games is between 1 and 1000."))
        await self.rate_finished()
        top = await self.store.leaderboard(guild, least_games=least_games, limit=BOARD_SIZE)
        mine = (await self.store.ratings(guild, [user_id])).get(user_id)
        if not top and mine is None and not (await self._place(guild, None, 1))[1]:
            raise StatsError(N_("Nobody has finished a rated game on this server yet."))
        hidden = await self.store.stats_hidden(user_id)
        above, ranked = await self._place(guild, mine, least_games)
        yours = None
        if mine is not None and not hidden and mine.games >= least_games:
            yours = _standing(above + 1, mine)
        board = tuple(_standing(i, r) for i, r in enumerate(top, start=1))
        games = 0 if mine is None else mine.games
        return Leaderboard(guild, least_games, board, ranked, yours, games, hidden)

    async def stats(self, guild_id: int | None, user_id: int, asker_id: int) -> PlayerStats:
        """`user_id`'s card on the server, as `asker_id` asked for it: refused for a
        player who hides their stats from others, and for one who never played here."""
        check_arguments(ABSENT, user_id, asker_id)
        guild = _server(guild_id)
        hidden = await self.store.stats_hidden(user_id)
        if hidden and user_id != asker_id:
            raise StatsError(N_("This player keeps their stats to themselves."))
        played = await self.store.played_games(guild, user_id)
        if not played:
            if user_id == asker_id:
                raise StatsError(N_("You have not played a game on this server yet."))
            raise StatsError(N_("This player has not played a game on this server yet."))
        await self.rate_finished()
        statuses = Counter(g.status for g in played)
        colours = Counter(g.colour for g in played if g.colour is not None)
        colour = max(sorted(colours), key=lambda c: colours[c]) if colours else None
        timezone = (await self._notifications.prefs(user_id)).timezone
        pace = pace_of(await self.store.beats(guild, user_id), user_id, timezone)
        mine = (await self.store.ratings(guild, [user_id])).get(user_id)
        standing = None
        above, ranked = await self._place(guild, mine, LEAST_GAMES)
        if mine is not None:
            shown = not hidden and mine.games >= LEAST_GAMES
            standing = _standing(above + 1 if shown else 0, mine)
        return PlayerStats(
            user_id=user_id,
            guild_id=guild,
            finished=statuses["over"],
            abandoned=statuses["abandoned"],
            playing=statuses["active"],
            colour=colour,
            pace=pace,
            rating=standing,
            rated_games=0 if mine is None else mine.games,
            wins=0 if mine is None else mine.wins,
            hidden=hidden,
            ranked=ranked,
        )

    async def _place(
        self, guild_id: int, mine: RatingRecord | None, least_games: int
    ) -> tuple[int, int]:
        """(players shown above `mine`, players the board shows)."""
        ordinal, user = (0.0, 0) if mine is None else (mine.ordinal, mine.user_id)
        return await self.store.board_place(guild_id, ordinal, user, least_games=least_games)

    async def set_hidden(self, user_id: int, hidden: bool) -> None:
        """Hide the user's stats from boards and from others' cards (or show them)."""
        check_arguments(ABSENT, user_id)
        await self.store.set_stats_hidden(user_id, hidden, at=self._clock())

    async def hidden(self, user_id: int) -> bool:
        check_arguments(ABSENT, user_id)
        return await self.store.stats_hidden(user_id)


def _server(guild_id: int | None) -> int:
    if guild_id is None:
        raise StatsError(N_("Stats and leaderboards belong to a server: ask in one."))
    return guild_id


def _standing(place: int, r: RatingRecord) -> Standing:
    return Standing(place, r.user_id, r.ordinal, r.mu, r.sigma, r.games, r.wins)
