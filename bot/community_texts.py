"""The community's texts: the leaderboard, a stats card's caption and its alt text
(what the card shows, in words, for a screen reader), and the line `/mk notify`
adds about hiding one's stats. Each in the language of the `messages` given."""

from __future__ import annotations

from bot.i18n.catalogue import Messages
from bot.service.community import Leaderboard, PlayerStats, Standing
from render.statscard import StatsCard, figures, hours_line, pace_line, rating_line


def card_of(stats: PlayerStats, name: str, server: str, least_games: int) -> StatsCard:
    """What the card image shows of a player's stats."""
    pace = stats.pace
    median = None if pace.median is None else pace.median.total_seconds() / 3600
    rating = stats.rating
    return StatsCard(
        name=name,
        server=server,
        colour=stats.colour,
        finished=stats.finished,
        abandoned=stats.abandoned,
        playing=stats.playing,
        wins=stats.wins,
        rated_games=stats.rated_games,
        turns=pace.turns,
        median_hours=median,
        hours=pace.hours,
        timezone=pace.timezone,
        usual=pace.usual_hours(),
        ordinal=None if rating is None else rating.ordinal,
        place=0 if rating is None else rating.place,
        ranked=stats.ranked,
        least_games=least_games,
    )


def stats_alt(card: StatsCard, messages: Messages) -> str:
    """The card in words (its image's description)."""
    m = messages
    numbers = ", ".join(f"{label} {value}" for value, label in figures(card, m))
    head = m.gettext("Stats card of {name} on {server}", name=card.name, server=card.server)
    lines = [head, numbers, rating_line(card, m), pace_line(card, m), hours_line(card, m)]
    return ". ".join(lines)[:1000]


def stats_caption(user_id: int, messages: Messages) -> str:
    return messages.gettext("Stats of <@{user}> on this server", user=user_id)


def _line(standing: Standing, messages: Messages) -> str:
    return messages.ngettext(
        "{place}. <@{user}>: {rating} ({games} rated game, {wins} won)",
        "{place}. <@{user}>: {rating} ({games} rated games, {wins} won)",
        standing.games,
        place=standing.place,
        user=standing.user_id,
        rating=f"{standing.ordinal:.1f}",
        games=standing.games,
        wins=standing.wins,
    )


def leaderboard_text(board: Leaderboard, messages: Messages) -> str:
    """The board: its best players, then the asker's own place (or why they have none)."""
    m = messages
    head = m.ngettext(
        "**Leaderboard** of players with at least {n} rated game (OpenSkill rating, μ - 3σ)",
        "**Leaderboard** of players with at least {n} rated games (OpenSkill rating, μ - 3σ)",
        board.least_games,
        n=board.least_games,
    )
    lines = [head]
    if board.top:
        lines += [_line(s, m) for s in board.top]
    else:
        lines.append(
            m.ngettext(
                "Nobody here has {n} rated game yet.",
                "Nobody here has {n} rated games yet.",
                board.least_games,
                n=board.least_games,
            )
        )
    lines.append(your_place(board, m))
    return "\n".join(lines)


def your_place(board: Leaderboard, messages: Messages) -> str:
    m = messages
    if board.hidden:
        return m.gettext("You keep your stats to yourself, so you are not on the board.")
    if board.yours is not None:
        return m.gettext(
            "You: place {place} of {ranked}, rating {rating}.",
            place=board.yours.place,
            ranked=board.ranked,
            rating=f"{board.yours.ordinal:.1f}",
        )
    if board.your_games == 0:
        return m.gettext("You have no rated game here yet.")
    more = board.least_games - board.your_games
    return m.ngettext(
        "You are on the board after {n} more rated game.",
        "You are on the board after {n} more rated games.",
        more,
        n=more,
    )


def stats_shown_text(hidden: bool, messages: Messages) -> str:
    """What `/mk notify` says of the player's stats."""
    if hidden:
        return messages.gettext(
            "Stats: hidden from leaderboards and from others' cards (`stats:True` shows them)."
        )
    return messages.gettext(
        "Stats: shown on leaderboards and to others (`stats:False` hides them)."
    )
