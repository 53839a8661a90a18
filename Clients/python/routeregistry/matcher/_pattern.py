"""Component patterns: tokenized (wildcards, substitution variables), canonicalised for paths, folded for
case-insensitive rules, and matched without regular expressions (so many stars cannot blow up)."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from ._codes import _CLASS_SETS, _LANGUAGES, _REGIONS
from ._url import _fold

_ANY_RUN = ("*",)
_ANY_CHAR = ("?",)
# A final "/*" of a path pattern: the end of the path, or a "/" and anything after it, so "/buy/*"
# matches "/buy" and "/buy/42" but not "/buyer".
_SUBPATH_TAIL = ("/*",)


def _tokenize(pattern: str, variables: Optional[Dict[str, List[str]]]) -> List[Any]:
    """Literal strings, `*`/`?` markers and variables: ("class", name), ("code", set), ("oneOf", [tokens])."""
    tokens: List[Any] = []
    literal: List[str] = []

    def flush() -> None:
        if literal:
            tokens.append("".join(literal))
            literal.clear()

    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "*":
            flush()
            if not tokens or tokens[-1] is not _ANY_RUN:
                tokens.append(_ANY_RUN)
            i += 1
        elif ch == "?":
            flush()
            tokens.append(_ANY_CHAR)
            i += 1
        elif ch == "$" and pattern.startswith("(", i + 1) and ")" in pattern[i + 2 :] and variables is not None:
            close = pattern.index(")", i + 2)
            token = _variable(pattern[i + 2 : close], variables)
            if token is None:
                literal.append(ch)
                i += 1
            else:
                flush()
                tokens.append(token)
                i = close + 1
        else:
            literal.append(ch)
            i += 1
    flush()
    return tokens


def _variable(name: str, variables: Dict[str, List[str]]) -> Optional[Tuple[str, Any]]:
    # Predefined names win over user lists of the same name; user values cannot reference variables.
    if name in _CLASS_SETS:
        return ("class", name)
    if name == "lang":
        return ("code", _LANGUAGES)
    if name == "region":
        return ("code", _REGIONS)
    if name in variables:
        return ("oneOf", [_tokenize(value, None) for value in variables[name]])
    return None


def _canonical_path_tokens(tokens: List[Any]) -> List[Any]:
    """The pattern-side twin of `_canonical_path`: leading '/' optional, repeated '/' collapsed, trailing '/'
    dropped (except for the root pattern "/"), and a final "/*" turned into the subpath tail."""
    tokens = list(tokens)
    if not (tokens and isinstance(tokens[0], str) and tokens[0].startswith("/")):
        tokens.insert(0, "/")
    tokens = [re.sub("/{2,}", "/", t) if isinstance(t, str) else t for t in _merge(tokens)]
    if tokens != ["/"] and isinstance(tokens[-1], str):
        last = tokens.pop().rstrip("/")
        if last:
            tokens.append(last)
    if len(tokens) >= 2 and tokens[-1] is _ANY_RUN and isinstance(tokens[-2], str) and tokens[-2].endswith("/"):
        slash = tokens[-2][:-1]
        del tokens[-2:]
        if slash:
            tokens.append(slash)
        tokens.append(_SUBPATH_TAIL)
    return tokens


def _merge(tokens: List[Any]) -> List[Any]:
    out: List[Any] = []
    for token in tokens:
        if isinstance(token, str):
            if not token:
                continue
            if out and isinstance(out[-1], str):
                out[-1] += token
                continue
        out.append(token)
    return out


def _compiled(tokens: List[Any], folded: bool) -> List[Any]:
    """Tokens ready for matching a subject in the rule's form: literals folded, classes as character sets."""
    out: List[Any] = []
    for token in tokens:
        if isinstance(token, str):
            out.append(_fold(token) if folded else token)
        elif token in (_ANY_RUN, _ANY_CHAR, _SUBPATH_TAIL):
            out.append(token)
        elif token[0] == "class":
            out.append(("set", _CLASS_SETS[token[1]][1 if folded else 0]))
        elif token[0] == "code":
            out.append(("set2", frozenset(_fold(c) for c in token[1]) if folded else token[1]))
        else:
            out.append(("oneOf", [_compiled(value, folded) for value in token[1]]))
    return out


def _step(token: Any, s: str, si: int) -> Optional[int]:
    """Consumes one fixed-width token at `si`; None when it does not match there."""
    if isinstance(token, str):
        return si + len(token) if s.startswith(token, si) else None
    if token is _ANY_CHAR:
        return si + 1 if si < len(s) else None
    if token[0] == "set":
        return si + 1 if si < len(s) and s[si] in token[1] else None
    if token[0] == "set2":
        return si + 2 if s[si : si + 2] in token[1] and len(s) - si >= 2 else None
    return None


def _greedy_match(tokens: List[Any], s: str) -> bool:
    """Glob matching with one backtrack point (linear-ish, no blow-up on many stars). Correct because every
    token between two stars has a fixed width, so the leftmost place a star-free segment matches is always
    the best one."""
    n = len(s)
    ti = si = 0
    star_t, star_s = -1, 0
    while True:
        if ti < len(tokens):
            token = tokens[ti]
            if token is _ANY_RUN:
                star_t, star_s = ti, si
                ti += 1
                continue
            if token is _SUBPATH_TAIL and (si == n or s[si] == "/"):
                return True
            nxt = _step(token, s, si)
            if nxt is not None:
                ti, si = ti + 1, nxt
                continue
        elif si == n:
            return True
        if star_t < 0 or star_s >= n:
            return False
        star_s += 1
        si, ti = star_s, star_t + 1


def _ends(tokens: List[Any], s: str, start: int) -> List[int]:
    """Every position where `tokens` (star-free of alternatives) can finish when started at `start`."""
    return [end for end in range(start, len(s) + 1) if _greedy_match(tokens, s[start:end])]


def _backtracking_match(tokens: List[Any], s: str) -> bool:
    """Memoised matching for patterns with user variables, whose alternatives have different shapes."""
    n = len(s)
    memo: Dict[Tuple[int, int], bool] = {}

    def from_(ti: int, si: int) -> bool:
        key = (ti, si)
        if key in memo:
            return memo[key]
        result = False
        while ti < len(tokens):
            token = tokens[ti]
            if token is _ANY_RUN:
                result = any(from_(ti + 1, k) for k in range(si, n + 1))
                break
            if token is _SUBPATH_TAIL:
                result = si == n or s[si] == "/"
                break
            if isinstance(token, tuple) and token[0] == "oneOf":
                result = any(from_(ti + 1, end) for value in token[1] for end in _ends(value, s, si))
                break
            nxt = _step(token, s, si)
            if nxt is None:
                break
            ti, si = ti + 1, nxt
        else:
            result = si == n
        memo[key] = result
        return result

    return from_(0, 0)


class _Pattern:
    __slots__ = ("tokens", "deterministic")

    def __init__(self, pattern: str, is_path: bool, folded: bool, variables: Dict[str, List[str]]) -> None:
        tokens = _tokenize(pattern, variables)
        if is_path:
            tokens = _canonical_path_tokens(tokens)
        self.tokens = _compiled(tokens, folded)
        self.deterministic = not any(isinstance(t, tuple) and t[0] == "oneOf" for t in self.tokens)

    def matches(self, text: str) -> bool:
        if self.deterministic:
            return _greedy_match(self.tokens, text)
        return _backtracking_match(self.tokens, text)
