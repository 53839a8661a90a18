"""Reading an AASA document the way iOS does, and evaluating a URL against it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ._pattern import _Pattern
from ._url import LinkURL, _Form, _fold, _normalized_host, parse_url

MATCH = "match"
EXCLUDE = "exclude"
NO_MATCH = "no_match"


class AASADocumentError(ValueError):
    """The document is not a usable AASA file; the message names the offending part."""


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


def _obj(value: Any, where: str) -> Dict[str, Any]:
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


def _defaults(base: Tuple[bool, bool], source: Dict[str, Any], where: str) -> Tuple[bool, bool]:
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


def _detail_rules(entry: Dict[str, Any], where: str, defaults: Tuple[bool, bool], variables: Dict[str, List[str]]) -> List[_Rule]:
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


def explain(aasa: Mapping[str, Any], app_id: str, url: str, domain: str) -> Evaluation:
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


def evaluate(aasa: Mapping[str, Any], app_id: str, url: str, domain: str) -> str:
    """What iOS does with `url` for app `app_id`, the AASA `aasa` served by `domain`.

    Returns ``"match"``, ``"exclude"`` or ``"no_match"``. Raises `AASADocumentError` when the
    document is malformed (a non-string path, a details value that is neither list nor object...).
    """
    return explain(aasa, app_id, url, domain).outcome
