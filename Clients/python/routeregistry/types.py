"""TypedDicts for the API's main shapes (see Schema/registry.openrpc.json, the source of truth).

They are plain dicts at runtime: the client sends and returns JSON objects unchanged, so fields a newer
server adds are kept. Keys are the wire's lowerCamelCase.
"""

from __future__ import annotations

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

__all__ = [
    "Platform", "ReleaseState", "Role", "DocumentKind", "Severity",
    "MatchDefaults", "IOSConfig", "AndroidConfig", "FallbackPolicy", "App",
    "Domain", "URLPattern", "VersionRange", "SwitchedOff", "Route",
    "Release", "LintFinding", "RevisionRef", "ReleaseChange", "Decision",
    "CanOpenTableResult", "RuleDiff", "Association", "WatchResult", "RevisionInfo",
    "NewToken", "Token", "CreatedToken", "AuditEntry", "MatrixCell", "MatrixRow", "Matrix",
]

Platform = Literal["ios", "android"]
ReleaseState = Literal["draft", "live", "retired"]
Role = Literal["admin", "releaser", "reader"]
DocumentKind = Literal["aasa", "assetlinks"]
Severity = Literal["warning", "error"]


class MatchDefaults(TypedDict, total=False):
    caseSensitive: bool
    percentEncoded: bool


class _IOSRequired(TypedDict):
    appIds: List[str]


class IOSConfig(_IOSRequired, total=False):
    webcredentials: bool
    appClips: List[str]


class AndroidConfig(TypedDict):
    packageName: str
    sha256CertFingerprints: List[str]


class FallbackPolicy(TypedDict, total=False):
    queryItem: str
    value: str


class _AppRequired(TypedDict):
    id: str


class App(_AppRequired, total=False):
    displayName: str
    ios: IOSConfig
    android: AndroidConfig
    schemes: List[str]
    fallback: FallbackPolicy
    defaults: MatchDefaults
    # output only
    name: str
    etag: str
    createTime: str
    updateTime: str


class _DomainRequired(TypedDict):
    host: str
    apps: List[str]


class Domain(_DomainRequired, total=False):
    aliasOf: str
    defaults: MatchDefaults
    substitutionVariables: Dict[str, List[str]]
    legacyPaths: bool
    name: str
    etag: str
    createTime: str


class URLPattern(TypedDict, total=False):
    scheme: Optional[str]
    path: Optional[str]
    query: Union[str, Dict[str, str], None]
    fragment: Optional[str]
    caseSensitive: Optional[bool]
    percentEncoded: Optional[bool]


class _VersionRangeRequired(TypedDict):
    since: str


class VersionRange(_VersionRangeRequired, total=False):
    until: Optional[str]


class _SwitchedOffRequired(TypedDict):
    version: str


class SwitchedOff(_SwitchedOffRequired, total=False):
    reason: str


class _RouteRequired(TypedDict):
    id: str
    pattern: URLPattern


class Route(_RouteRequired, total=False):
    action: Literal["open", "exclude"]
    platforms: Dict[str, VersionRange]
    switchedOff: Dict[str, List[SwitchedOff]]
    domains: List[str]
    webFallback: str
    comment: str
    # output only
    name: str
    app: str
    position: int
    etag: str
    createTime: str
    updateTime: str


class Release(TypedDict, total=False):
    name: str
    app: str
    platform: Platform
    version: str
    state: ReleaseState
    createTime: str
    publishTime: str
    retireTime: str


class LintFinding(TypedDict, total=False):
    severity: Severity
    code: str
    message: str
    route: str


class RevisionRef(TypedDict, total=False):
    host: str
    kind: DocumentKind
    revision: int
    etag: str
    changed: bool


class ReleaseChange(TypedDict):
    """Result of Releases.Publish and Releases.Retire."""

    release: Release
    revisions: List[RevisionRef]
    lint: List[LintFinding]


class Decision(TypedDict, total=False):
    decision: Literal["open_in_app", "open_in_browser", "not_associated"]
    reason: Literal["route", "excluded", "unsupported_version", "switched_off", "fallback_marker", "no_route"]
    route: str
    fallbackUrl: str
    supportedSince: str


class CanOpenTableResult(TypedDict, total=False):
    etag: str
    notModified: bool
    table: Dict[str, Any]


class _Change(TypedDict):
    before: Dict[str, Any]
    after: Dict[str, Any]


class RuleDiff(TypedDict):
    added: List[Dict[str, Any]]
    removed: List[Dict[str, Any]]
    changed: List[_Change]


class Association(TypedDict, total=False):
    host: str
    kind: DocumentKind
    revision: int
    etag: str
    cause: str
    createTime: str
    document: Any


class WatchResult(TypedDict, total=False):
    host: str
    kind: DocumentKind
    revision: int
    etag: str
    notModified: bool
    document: Any


class RevisionInfo(TypedDict, total=False):
    revision: int
    etag: str
    cause: str
    createTime: str


class NewToken(TypedDict):
    displayName: str
    role: Role


class Token(TypedDict, total=False):
    name: str
    id: str
    displayName: str
    role: Role
    createTime: str
    revokeTime: str


class CreatedToken(TypedDict):
    token: Token
    secret: str


class AuditEntry(TypedDict, total=False):
    id: str
    at: str
    actor: str
    method: str
    resource: str
    before: Any
    after: Any
    requestId: str


class MatrixCell(TypedDict):
    version: str
    state: Literal["open", "fallback", "switched_off", "excluded"]


class MatrixRow(TypedDict, total=False):
    route: str
    pattern: URLPattern
    action: Literal["open", "exclude"]
    supportedSince: str
    cells: List[MatrixCell]


class Matrix(TypedDict, total=False):
    app: str
    platform: Platform
    versions: List[str]
    routes: List[MatrixRow]
