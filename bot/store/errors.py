"""Errors a store raises. Conflicts are the expected outcome of racing writers; the
service turns them into sentences for players."""

from __future__ import annotations


class StoreError(Exception):
    """Base class for store failures."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of the bot: refuse to touch it."""

    def __init__(self, where: str, found: int, known: int) -> None:
        super().__init__(
            f"The database {where} has schema version {found}, but this bot knows versions"
            f" up to {known}. Upgrade the bot; the database was left untouched."
        )
        self.found = found
        self.known = known


class ConflictError(StoreError):
    """A conditional write lost a race: nothing was written."""


class SeqConflictError(ConflictError):
    """The log of a game already moved past the sequence number being appended."""

    def __init__(self, game_id: int, seq: int, last_seq: int) -> None:
        super().__init__(f"game {game_id}: cannot append action {seq}, the log is at {last_seq}")
        self.game_id = game_id
        self.seq = seq
        self.last_seq = last_seq


class DuplicateInteractionError(ConflictError):
    """The interaction id was already handled (by this or another bot process)."""

    def __init__(self, interaction_id: int) -> None:
        super().__init__(f"interaction {interaction_id} was already handled")
        self.interaction_id = interaction_id


class StatusConflictError(ConflictError):
    """The game is not in the status the write requires (e.g. it was abandoned)."""

    def __init__(self, game_id: int, status: str | None, required: str) -> None:
        found = "missing" if status is None else status
        super().__init__(f"game {game_id} is {found}, not {required}")
        self.game_id = game_id
        self.status = status


class StoreUnusableError(StoreError):
    """The database cannot be opened as it is (empty, read-only, not a database): one
    sentence for the host, raised by `open` before anything is written."""


class WriteFaultError(StoreError):
    """A write failed for want of room or permission: the transaction was rolled back,
    nothing was stored. `reason` says why, in words for the host."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"The database {where} could not be written: {reason}.")
        self.reason = reason


class StoreFullError(WriteFaultError):
    """The disk is full, the database reached its size limit or a value is too big."""


class StoreReadOnlyError(WriteFaultError):
    """The database file (or its folder) became read-only."""


class StoreDamagedError(StoreError):
    """A part of the database file is damaged (a corrupted page): what lives there
    cannot be read or written, the rest can. `where` is the database."""

    def __init__(self, where: str, detail: str) -> None:
        super().__init__(f"The database {where} is damaged where this was stored: {detail}.")
        self.detail = detail
