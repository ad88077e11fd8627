"""What ties a game's snapshot to its log, so a cache that drifted is noticed cheaply.

Each log entry stores a *chain* value: a hash of the previous entry's chain and the
entry itself (seq, seat, notation), starting from a value of the game's own. A
snapshot stores the chain value of the entry it reflects and a *digest* of its state
text bound to that chain value. A load compares the snapshot's chain value with the
log's (one row) and its digest with its text (one hash): no replay. The chain makes
every entry up to the snapshot part of that one comparison for a full check, and any
edited, moved or deleted entry breaks it.

These are checks against bit rot, lossy code and hand edits, not a signature: anyone
who can write the file can recompute them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

DIGEST_BYTES = 16


def _hash(text: str) -> str:
    # surrogatepass: text decoded from damaged bytes still hashes (to a different value)
    data = text.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=DIGEST_BYTES).hexdigest()


def genesis(game_id: int) -> str:
    """The chain value before a game's first entry (seq 0)."""
    return _hash(f"mountain-king log {game_id}")


def next_chain(previous: str, seq: int, seat: int, notation: str) -> str:
    """The chain value of an entry, from the chain value of the entry before it."""
    return _hash(f"{previous}\x1f{seq}\x1f{seat}\x1f{notation}")


def state_digest(seq: int, chain: str, state: str) -> str:
    """A snapshot's digest: its state text bound to its place in the log."""
    return _hash(f"{seq}\x1f{chain}\x1f{state}")


def chain_break(
    start: str, entries: Iterable[tuple[int, int, str, str | None]], after: int
) -> tuple[int, str] | None:
    """The first of `(seq, seat, notation, stored chain)` entries, expected to number
    `after + 1, after + 2, ...` from chain value `start`, that is missing or whose stored
    chain disagrees, as (seq, reason); None when every entry agrees."""
    value = start
    for expected, (seq, seat, notation, stored) in enumerate(entries, start=after + 1):
        if seq != expected:
            return expected, f"log entry {expected} is missing (the log jumps to {seq})"
        value = next_chain(value, seq, seat, notation)
        if stored != value:
            return seq, f"log entry {seq} does not match the log's chain (edited or damaged)"
    return None
