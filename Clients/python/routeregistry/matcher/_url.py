"""URLs split the way iOS sees them, and the text forms (decoded, folded, canonical path) both sides of a
comparison go through."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import List, Optional, Tuple


@dataclass(frozen=True)
class LinkURL:
    """A URL split the way iOS sees it for matching: components as written, host normalised."""

    scheme: str
    host: str
    path: str
    query: Optional[str]
    fragment: Optional[str]


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*$")


def _normalized_host(host: str) -> str:
    return host.lower().rstrip(".")


def parse_url(text: str) -> Optional[LinkURL]:
    """Splits `scheme:[//authority]path[?query][#fragment]` by hand, so escapes stay as written.

    Returns None when there is no valid scheme.
    """
    scheme, colon, rest = text.partition(":")
    if not colon or not _SCHEME.match(scheme):
        return None
    fragment = None
    if "#" in rest:
        rest, _, fragment = rest.partition("#")
    query = None
    if "?" in rest:
        rest, _, query = rest.partition("?")
    host = ""
    if rest.startswith("//"):
        rest = rest[2:]
        end = rest.find("/")
        authority, rest = (rest, "") if end < 0 else (rest[:end], rest[end:])
        authority = authority.rpartition("@")[2]
        if authority.startswith("[") and "]" in authority:
            host = authority[: authority.index("]") + 1].lower()
        else:
            host = _normalized_host(authority.partition(":")[0])
    return LinkURL(scheme.lower(), host, rest, query, fragment)


# ---- text forms shared by patterns and URLs


def _fold(text: str) -> str:
    # Character by character, so folding pieces of a pattern equals folding the whole (no final-sigma rule).
    return "".join(ch.lower() for ch in text)


_ESCAPE_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _percent_decoded(text: str) -> str:
    """Decodes each run of escapes as UTF-8; a malformed escape, or a run that is not valid UTF-8, stays as
    written: what cannot be decoded is compared literally rather than rejecting the URL."""
    if "%" not in text:
        return text

    def decode(run: "re.Match[str]") -> str:
        try:
            return bytes(int(run.group(0)[i + 1 : i + 3], 16) for i in range(0, len(run.group(0)), 3)).decode("utf-8")
        except UnicodeDecodeError:
            return run.group(0)

    return _ESCAPE_RUN.sub(decode, text)


def _canonical_path(path: str) -> str:
    """A leading '/', no repeated '/', no trailing '/' except for the root path "/" (so "" and "/" are the
    same path, and so are "/buy" and "/buy/")."""
    path = re.sub("/{2,}", "/", "/" + path)
    return path.rstrip("/") or "/"


class _Form:
    """How a rule looks at a URL: percent-decoded or as written, folded or not."""

    __slots__ = ("decoded", "folded")

    def __init__(self, case_sensitive: bool, percent_encoded: bool) -> None:
        self.decoded = not percent_encoded
        self.folded = not case_sensitive

    def text(self, text: str) -> str:
        if self.decoded:
            text = _percent_decoded(text)
        return _fold(text) if self.folded else text

    def path(self, path: str) -> str:
        if self.decoded:
            path = _percent_decoded(path)
        path = _canonical_path(path)
        return _fold(path) if self.folded else path

    def items(self, query: Optional[str]) -> List[Tuple[str, str]]:
        result = []
        for piece in (query or "").split("&"):
            if not piece:
                continue
            name, _, value = piece.partition("=")
            result.append((self.text(name), self.text(value)))
        return result
