"""Apple's apple-app-site-association matching, re-implemented locally.

`evaluate(aasa, app_id, url, domain)` answers what iOS does with `url` for an installed app `app_id`, the
AASA document `aasa` having been fetched from `domain`: ``"match"`` (the app opens it), ``"exclude"``
(an exclude rule decided: the browser) or ``"no_match"`` (no rule matched, or the host or app is not
covered: the browser).

It follows the same semantics as RouteRegistry's Swift matcher (DESIGN.md section 3) and is tested against
the shared conformance vectors recorded against Apple's swcutil:

- details listing the app are read in document order; within them the first matching rule decides, and an
  exclude rule stops the scan;
- a component the rule does not name matches anything; a component absent from the URL counts as empty;
- ``*`` matches any run of characters (none, and ``/``, included), ``?`` exactly one, ``?*`` at least one;
- paths: the pattern's leading ``/`` is optional, trailing slashes are ignored on both sides, repeated
  slashes collapse, so ``/buy/*`` matches ``/buy`` but not ``/buyer`` and ``/`` matches an empty path;
- a string query pattern matches the whole query; a dictionary checks only the items it names (a missing
  item is empty, every occurrence of a repeated name must match, a valueless item is empty), and a
  dictionary holding any non-string value is ignored altogether;
- ``percentEncoded`` true (default) compares the URL as written (hex case matters, ``%2F`` is no
  separator); false percent-decodes the URL first; ``caseSensitive`` defaults to true; a rule's own
  setting wins over its detail's ``defaults``, which win over the top-level ``defaults``;
- substitution variables: ``$(alpha)``, ``$(upper)``, ``$(lower)``, ``$(alnum)``, ``$(digit)``,
  ``$(xdigit)`` (one ASCII character each), ``$(lang)`` (ISO 639-1), ``$(region)`` (ISO 3166-1 alpha-2)
  and the document's own lists, whose values may hold wildcards; an unknown ``$(name)`` is literal text;
- the legacy ``paths`` form (``NOT `` marks an exclusion; path only, case-sensitive, as written) and the
  legacy dictionary form ``{appID: {"paths": [...]}}``.

Standard library only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Tuple

__all__ = ["evaluate", "explain", "Evaluation", "AASADocumentError", "LinkURL", "parse_url"]

MATCH = "match"
EXCLUDE = "exclude"
NO_MATCH = "no_match"

# ISO 639-1 two-letter language codes (the list behind $(lang)); the same data as RouteCore's ISOCodes.
_LANGUAGES = frozenset(
    """aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv
    dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii
    ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk
    ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc
    sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve
    vi vo wa wo xh yi yo za zh zu""".split()
)

# ISO 3166-1 alpha-2 region codes, officially assigned (GB is one, UK is not).
_REGIONS = frozenset(
    """AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV
    BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET
    FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM
    IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD
    ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE
    PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST
    SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS
    YE YT ZA ZM ZW""".split()
)

# One ASCII character per class (sensitive, folded); under caseSensitive false, $(upper) and $(lower)
# accept every letter, like any other folded text.
_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
_DIGIT = frozenset("0123456789")
_CLASS_SETS = {
    "alpha": (_UPPER | _LOWER, _UPPER | _LOWER),
    "upper": (_UPPER, _UPPER | _LOWER),
    "lower": (_LOWER, _UPPER | _LOWER),
    "alnum": (_UPPER | _LOWER | _DIGIT, _UPPER | _LOWER | _DIGIT),
    "digit": (_DIGIT, _DIGIT),
    "xdigit": (_DIGIT | frozenset("ABCDEFabcdef"), _DIGIT | frozenset("ABCDEFabcdef")),
}


class AASADocumentError(ValueError):
    """The document is not a usable AASA file; the message names the offending part."""


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


# ---- patterns

_ANY_RUN = ("*",)
_ANY_CHAR = ("?",)
# A final "/*" of a path pattern: the end of the path, or a "/" and anything after it, so "/buy/*"
# matches "/buy" and "/buy/42" but not "/buyer".
_SUBPATH_TAIL = ("/*",)


def _tokenize(pattern: str, variables: Optional[Dict[str, List[str]]]) -> list:
    """Literal strings, `*`/`?` markers and variables: ("class", name), ("code", set), ("oneOf", [tokens])."""
    tokens: list = []
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


def _variable(name: str, variables: Dict[str, List[str]]):
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


def _canonical_path_tokens(tokens: list) -> list:
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


def _merge(tokens: list) -> list:
    out: list = []
    for token in tokens:
        if isinstance(token, str):
            if not token:
                continue
            if out and isinstance(out[-1], str):
                out[-1] += token
                continue
        out.append(token)
    return out


def _compiled(tokens: list, folded: bool) -> list:
    """Tokens ready for matching a subject in the rule's form: literals folded, classes as character sets."""
    out = []
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


def _greedy_match(tokens: list, s: str) -> bool:
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


def _ends(tokens: list, s: str, start: int) -> List[int]:
    """Every position where `tokens` (star-free of alternatives) can finish when started at `start`."""
    return [end for end in range(start, len(s) + 1) if _greedy_match(tokens, s[start:end])]


def _backtracking_match(tokens: list, s: str) -> bool:
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


# ---- rules and documents


class _Rule:
    __slots__ = ("source", "exclude", "form", "path", "query", "items", "fragment")

    def __init__(
        self,
        source: Any,
        variables: Dict[str, List[str]],
        path: Optional[str] = None,
        query: Any = None,
        fragment: Optional[str] = None,
        exclude: bool = False,
        case_sensitive: bool = True,
        percent_encoded: bool = True,
    ) -> None:
        self.source = source
        self.exclude = exclude
        self.form = _Form(case_sensitive, percent_encoded)
        folded = self.form.folded
        self.path = _Pattern(path, True, folded, variables) if path is not None else None
        self.fragment = _Pattern(fragment, False, folded, variables) if fragment is not None else None
        self.query = _Pattern(query, False, folded, variables) if isinstance(query, str) else None
        self.items = None
        if isinstance(query, dict):
            self.items = [
                (_fold(name) if folded else name, _Pattern(value, False, folded, variables))
                for name, value in sorted(query.items())
            ]

    def matches(self, url: LinkURL) -> bool:
        form = self.form
        if self.path is not None and not self.path.matches(form.path(url.path)):
            return False
        if self.fragment is not None and not self.fragment.matches(form.text(url.fragment or "")):
            return False
        if self.query is not None and not self.query.matches(form.text(url.query or "")):
            return False
        if self.items is not None:
            items = form.items(url.query)
            for name, pattern in self.items:
                values = [value for item_name, value in items if item_name == name]
                if not values:
                    values = [""]
                if not all(pattern.matches(value) for value in values):
                    return False
        return True


@dataclass(frozen=True)
class Evaluation:
    """What `explain` found: the outcome, and which detail and rule decided it (None when nothing did)."""

    outcome: str
    reason: str
    detail_index: Optional[int] = None
    rule_index: Optional[int] = None
    rule: Any = None


def _obj(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise AASADocumentError(f"{where} is not an object")
    return value


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise AASADocumentError(f"{where} is not a string")
    return value


def _strs(value: Any, where: str) -> List[str]:
    if not isinstance(value, list):
        raise AASADocumentError(f"{where} is not an array of strings")
    return [_str(item, f"{where}[{i}]") for i, item in enumerate(value)]


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise AASADocumentError(f"{where} is not true or false")
    return value


def _defaults(base: Tuple[bool, bool], source: dict, where: str) -> Tuple[bool, bool]:
    case_sensitive, percent_encoded = base
    if "caseSensitive" in source:
        case_sensitive = _bool(source["caseSensitive"], f"{where}.caseSensitive")
    if "percentEncoded" in source:
        percent_encoded = _bool(source["percentEncoded"], f"{where}.percentEncoded")
    return case_sensitive, percent_encoded


def _variables(value: Any, where: str) -> Dict[str, List[str]]:
    if value is None:
        return {}
    return {name: _strs(values, f"{where}[{name!r}]") for name, values in _obj(value, where).items()}


def _details(aasa: Any) -> List[Tuple[List[str], List[_Rule]]]:
    document = _obj(aasa, "the document")
    if "applinks" not in document:
        return []
    applinks = _obj(document["applinks"], "applinks")
    defaults = (True, True)
    if "defaults" in applinks:
        defaults = _defaults(defaults, _obj(applinks["defaults"], "applinks.defaults"), "applinks.defaults")
    variables = _variables(applinks.get("substitutionVariables"), "applinks.substitutionVariables")
    details = applinks.get("details")
    if details is None:
        return []
    if isinstance(details, list):
        result = []
        for index, value in enumerate(details):
            where = f"applinks.details[{index}]"
            entry = _obj(value, where)
            app_ids = _strs(entry["appIDs"], f"{where}.appIDs") if "appIDs" in entry else []
            if "appID" in entry:
                app_ids.append(_str(entry["appID"], f"{where}.appID"))
            result.append((app_ids, _detail_rules(entry, where, defaults, variables)))
        return result
    if isinstance(details, dict):
        # The iOS 9 form, app IDs as keys; sorted so the order is stable.
        return [
            ([app_id], _detail_rules(_obj(details[app_id], f"applinks.details[{app_id!r}]"),
                                     f"applinks.details[{app_id!r}]", defaults, variables))
            for app_id in sorted(details)
        ]
    raise AASADocumentError("applinks.details is neither an array nor an object")


def _detail_rules(entry: dict, where: str, defaults: Tuple[bool, bool], variables: Dict[str, List[str]]) -> List[_Rule]:
    if "defaults" in entry:
        defaults = _defaults(defaults, _obj(entry["defaults"], f"{where}.defaults"), f"{where}.defaults")
    if "substitutionVariables" in entry:
        variables = {**variables, **_variables(entry["substitutionVariables"], f"{where}.substitutionVariables")}
    rules = []
    if "components" in entry:
        # iOS 13+ reads components and ignores paths when both are present.
        components = entry["components"]
        if not isinstance(components, list):
            raise AASADocumentError(f"{where}.components is not an array")
        for index, item in enumerate(components):
            place = f"{where}.components[{index}]"
            component = _obj(item, place)
            case_sensitive, percent_encoded = _defaults(defaults, component, place)
            query = component.get("?")
            if isinstance(query, dict) and not all(isinstance(v, str) for v in query.values()):
                query = None  # Apple ignores the whole dictionary when any value is not a string.
            elif not isinstance(query, (str, dict)):
                query = None
            rules.append(
                _Rule(
                    component,
                    variables,
                    path=_str(component["/"], f'{place}["/"]') if "/" in component else None,
                    query=query,
                    fragment=_str(component["#"], f'{place}["#"]') if "#" in component else None,
                    exclude=_bool(component["exclude"], f"{place}.exclude") if "exclude" in component else False,
                    case_sensitive=case_sensitive,
                    percent_encoded=percent_encoded,
                )
            )
    else:
        # Legacy paths predate defaults: path only, case-sensitive, compared as written.
        for path in _strs(entry["paths"], f"{where}.paths") if "paths" in entry else []:
            if path.startswith("NOT "):
                rules.append(_Rule(path, variables, path=path[4:], exclude=True))
            else:
                rules.append(_Rule(path, variables, path=path))
    return rules


def explain(aasa: dict, app_id: str, url: str, domain: str) -> Evaluation:
    """Like `evaluate`, with the deciding detail and rule (as written) or why nothing decided.

    Raises `AASADocumentError` when the document is malformed.
    """
    details = _details(aasa)
    link = parse_url(url)
    if link is None:
        return Evaluation(NO_MATCH, "not a URL")
    if link.scheme not in ("https", "http"):
        return Evaluation(NO_MATCH, f"not an http or https URL (scheme {link.scheme})")
    host = _normalized_host(domain)
    if link.host != host:
        return Evaluation(NO_MATCH, f"host {link.host} differs from the domain {host}")
    listing = [index for index, (app_ids, _) in enumerate(details) if app_id in app_ids]
    if not listing:
        return Evaluation(NO_MATCH, f"app ID {app_id} not listed in applinks")
    count = 0
    for detail_index in listing:
        rules = details[detail_index][1]
        count += len(rules)
        for rule_index, rule in enumerate(rules):
            if rule.matches(link):
                outcome = EXCLUDE if rule.exclude else MATCH
                reason = "an exclude rule matched" if rule.exclude else "a rule matched"
                return Evaluation(outcome, reason, detail_index, rule_index, rule.source)
    return Evaluation(NO_MATCH, f"no rule matched ({count} rule{'' if count == 1 else 's'} for the app)")


def evaluate(aasa: dict, app_id: str, url: str, domain: str) -> str:
    """What iOS does with `url` for app `app_id`, the AASA `aasa` served by `domain`.

    Returns ``"match"``, ``"exclude"`` or ``"no_match"``. Raises `AASADocumentError` when the
    document is malformed (a non-string path, a details value that is neither list nor object...).
    """
    return explain(aasa, app_id, url, domain).outcome
