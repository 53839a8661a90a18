"""`create_link`'s plan, shared by the blocking and the asyncio client: one idempotency key for the whole call,
chunks of at most 1000 links for `Links.BatchCreate` (keyed `{request_id}.{n}` when there are several), and which
failures leave the outcome unknown, so the same request is sent again with the same key."""

from __future__ import annotations

import re
import uuid
from typing import List, Optional, Sequence, Tuple, TypeVar

from .errors import Aborted, DeadlineExceeded, Unavailable

#: Links per `Links.BatchCreate` call (the server's limit).
MAX_BATCH = 1000

_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")

_Link = TypeVar("_Link")


def request_key(request_id: Optional[str]) -> str:
    """The call's idempotency key: `request_id` (checked against the API's pattern) or a random one."""
    key = uuid.uuid4().hex if request_id is None else request_id
    if not _REQUEST_ID.fullmatch(key):
        raise ValueError(f"request_id must be 1-64 of A-Z a-z 0-9 . _ : - (got {key!r})")
    return key


def chunks(links: Sequence[_Link], key: str) -> List[Tuple[str, List[_Link]]]:
    """The batches to send, each with its key."""
    parts = [list(links[i:i + MAX_BATCH]) for i in range(0, len(links), MAX_BATCH)]
    if len(parts) <= 1:
        return [(key, part) for part in parts]
    keyed = [(f"{key}.{n}", part) for n, part in enumerate(parts)]
    if any(len(name) > 64 for name, _ in keyed):
        raise ValueError(f"request_id is too long for {len(parts)} batches: keep it under "
                         f"{64 - len(str(len(parts))) - 1} characters")
    return keyed


def outcome_unknown(error: BaseException) -> bool:
    """UNAVAILABLE (connection lost, database unreachable), DEADLINE_EXCEEDED, ABORTED: the write may have
    committed, so it is sent again with the same key (the server then answers the first outcome)."""
    return isinstance(error, (Unavailable, DeadlineExceeded, Aborted))
