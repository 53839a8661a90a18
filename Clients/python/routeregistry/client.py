"""The RouteRegistry client: one method per API method, pagination helpers, and `publish_release` for CI.

Method names are the API's in snake_case (`Routes.SwitchOff` -> `routes_switch_off`), parameters the API's
params in snake_case (`pageToken` -> `page_token`). `METHODS` lists them all; a test holds it, and every
method's signature, equal to Schema/registry.openrpc.json.
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any, Dict, Iterator, Optional, Sequence, TextIO, Union

from ._transport import Transport
from .errors import LintFailure, ProtocolError
from .types import (
    App, Association, AuditEntry, CanOpenTableResult, CreatedToken, Decision, Domain, Matrix, NewToken,
    Release, ReleaseChange, RevisionInfo, Route, RuleDiff, Token, WatchResult,
)

__all__ = ["Client", "METHODS", "python_name"]

Version = Union[str, int]  # an Android versionCode may be given as an int; it is sent as a string


def python_name(method: str) -> str:
    """`CanOpen.GetTable` -> `can_open_get_table`; `rpc.discover` -> `rpc_discover`."""
    return "_".join(re.sub(r"(?<!^)(?=[A-Z])", "_", part).lower() for part in method.split("."))


# Every API method and whether it is safe to repeat after the request may have reached the server.
# Only reads are: a write is retried only when connecting failed, i.e. when it was certainly not sent.
METHODS: Dict[str, bool] = {
    "Apps.Create": False, "Apps.Get": True, "Apps.List": True, "Apps.Update": False, "Apps.Delete": False,
    "Domains.Create": False, "Domains.Get": True, "Domains.List": True, "Domains.Delete": False,
    "Routes.Create": False, "Routes.BatchCreate": False, "Routes.Get": True, "Routes.List": True,
    "Routes.Update": False, "Routes.Delete": False, "Routes.Reorder": False, "Routes.SwitchOff": False,
    "Routes.SwitchOn": False,
    "Releases.Create": False, "Releases.Publish": False, "Releases.Retire": False, "Releases.Get": True,
    "Releases.List": True,
    "Associations.Get": True, "Associations.ListRevisions": True, "Associations.Diff": True,
    "Associations.Preview": True, "Associations.Watch": True,
    "CanOpen.GetTable": True, "CanOpen.Check": True,
    "Matrix.Get": True,
    "Tokens.Create": False, "Tokens.List": True, "Tokens.Revoke": False,
    "Audit.List": True,
    "rpc.discover": True,
}

_WATCH_DEFAULT_MS = 30000


def _v(version: Version) -> str:
    return str(version)


class Client:
    """A RouteRegistry API client (JSON-RPC 2.0 over HTTP, standard library only).

    `server` is the registry's base URL (`/rpc` is appended unless present); `token` the bearer secret for
    methods that need one; `timeout` the socket timeout in seconds; `retries` how many times a call is
    repeated on UNAVAILABLE or a connection failure, with exponential backoff from `backoff` seconds up to
    `max_backoff`. Writes are repeated only when connecting failed (the request was certainly not sent).
    `request_timeout_ms` sends the server a deadline (`X-Request-Timeout-Ms`).

    Application errors raise `RegistryError` (`.code`, `.status`, `.message`, `.details`), protocol errors
    `ProtocolError`. A client is safe to share between threads (one connection per call).
    """

    def __init__(self, server: str = "http://127.0.0.1:8080", token: Optional[str] = None, timeout: float = 10,
                 retries: int = 3, backoff: float = 0.25, max_backoff: float = 5.0,
                 request_timeout_ms: Optional[int] = None) -> None:
        self.server = server
        self._transport = Transport(server, token, timeout, retries, backoff, max_backoff, request_timeout_ms)

    @classmethod
    def from_env(cls, **overrides: Any) -> "Client":
        """A client for `ROUTEREG_SERVER` (default http://127.0.0.1:8080) with `ROUTEREG_TOKEN`, as the CLI."""
        settings: Dict[str, Any] = {
            "server": os.environ.get("ROUTEREG_SERVER", "http://127.0.0.1:8080"),
            "token": os.environ.get("ROUTEREG_TOKEN") or None,
        }
        settings.update(overrides)
        return cls(**settings)

    # ---- generic

    def call(self, method: str, /, **params: Any) -> Any:
        """Calls any method by its wire name with wire (camelCase) params, e.g.
        `client.call("Apps.Get", app="badoo")`. Unknown methods are sent as well (a newer server's)."""
        return self._transport.call(method, params, METHODS.get(method, False))

    def _call(self, method: str, timeout: Optional[float] = None, **params: Any) -> Any:
        # Absent optional params are left out rather than sent as null.
        present = {name: value for name, value in params.items() if value is not None}
        return self._transport.call(method, present if method != "rpc.discover" else None, METHODS[method], timeout)

    # ---- Apps

    def apps_create(self, app: App) -> App:
        """Creates an app (admin)."""
        return self._call("Apps.Create", app=app)

    def apps_get(self, app: str) -> App:
        """Returns app `app` (reader)."""
        return self._call("Apps.Get", app=app)

    def apps_list(self, page_size: Optional[int] = None, page_token: Optional[str] = None) -> Dict[str, Any]:
        """One page of apps: `{"apps": [...], "nextPageToken": ...}` (reader). See `iter_apps`."""
        return self._call("Apps.List", pageSize=page_size, pageToken=page_token)

    def apps_update(self, app: App, etag: Optional[str] = None) -> App:
        """Replaces everything of an app but its id; a stale `etag` fails ABORTED (admin)."""
        return self._call("Apps.Update", app=app, etag=etag)

    def apps_delete(self, app: str, etag: Optional[str] = None) -> Dict[str, Any]:
        """Deletes an app; FAILED_PRECONDITION while domains list it (admin)."""
        return self._call("Apps.Delete", app=app, etag=etag)

    # ---- Domains

    def domains_create(self, domain: Domain) -> Domain:
        """Adds a domain (admin)."""
        return self._call("Domains.Create", domain=domain)

    def domains_get(self, host: str) -> Domain:
        """Returns a domain (reader)."""
        return self._call("Domains.Get", host=host)

    def domains_list(self, app: Optional[str] = None, page_size: Optional[int] = None,
                     page_token: Optional[str] = None) -> Dict[str, Any]:
        """One page of domains, optionally of one app (reader). See `iter_domains`."""
        return self._call("Domains.List", app=app, pageSize=page_size, pageToken=page_token)

    def domains_delete(self, host: str, etag: Optional[str] = None) -> Dict[str, Any]:
        """Removes a domain (admin)."""
        return self._call("Domains.Delete", host=host, etag=etag)

    # ---- Routes

    def routes_create(self, app: str, route: Route, before: Optional[str] = None) -> Route:
        """Adds a route, last unless `before` names a route (releaser)."""
        return self._call("Routes.Create", app=app, route=route, before=before)

    def routes_batch_create(self, app: str, routes: Sequence[Route], before: Optional[str] = None) -> Dict[str, Any]:
        """Adds 1 to 5000 routes in one write, all or none, in their order: last, or all before `before`.
        Returns `{"routes": [...]}` in the order given; a refused route is named `routes[i]` (releaser)."""
        return self._call("Routes.BatchCreate", app=app, routes=list(routes), before=before)

    def routes_get(self, app: str, route: str) -> Route:
        """Returns a route by id (reader)."""
        return self._call("Routes.Get", app=app, route=route)

    def routes_list(self, app: str, page_size: Optional[int] = None,
                    page_token: Optional[str] = None) -> Dict[str, Any]:
        """One page of an app's routes in evaluation order (reader). See `iter_routes`."""
        return self._call("Routes.List", app=app, pageSize=page_size, pageToken=page_token)

    def routes_update(self, app: str, route: Route, etag: Optional[str] = None) -> Route:
        """Replaces a route's pattern, action, platforms, domains, webFallback, comment (releaser)."""
        return self._call("Routes.Update", app=app, route=route, etag=etag)

    def routes_delete(self, app: str, route: str, etag: Optional[str] = None) -> Dict[str, Any]:
        """Deletes a route (releaser)."""
        return self._call("Routes.Delete", app=app, route=route, etag=etag)

    def routes_reorder(self, app: str, order: Sequence[str]) -> Dict[str, Any]:
        """Sets the evaluation order: `order` lists every route id of the app (releaser)."""
        return self._call("Routes.Reorder", app=app, order=list(order))

    def routes_switch_off(self, app: str, route: str, platform: str, versions: Sequence[Version],
                          reason: Optional[str] = None) -> Route:
        """Kill switch: `versions` stop opening the route's links in the app (releaser)."""
        return self._call("Routes.SwitchOff", app=app, route=route, platform=platform,
                          versions=[_v(v) for v in versions], reason=reason)

    def routes_switch_on(self, app: str, route: str, platform: str, versions: Sequence[Version]) -> Route:
        """Undoes `routes_switch_off` for `versions` (releaser)."""
        return self._call("Routes.SwitchOn", app=app, route=route, platform=platform,
                          versions=[_v(v) for v in versions])

    # ---- Releases

    def releases_create(self, app: str, platform: str, version: Version) -> Release:
        """Creates a draft release (releaser)."""
        return self._call("Releases.Create", app=app, platform=platform, version=_v(version))

    def releases_publish(self, app: str, platform: str, version: Version) -> ReleaseChange:
        """Makes a release live, creating it if needed; returns the release, revisions and lint (releaser).
        See `publish_release` for the CI-friendly form."""
        return self._call("Releases.Publish", app=app, platform=platform, version=_v(version))

    def releases_retire(self, app: str, platform: str, version: Version) -> ReleaseChange:
        """Retires a live release (releaser)."""
        return self._call("Releases.Retire", app=app, platform=platform, version=_v(version))

    def releases_get(self, app: str, platform: str, version: Version) -> Release:
        """Returns a release (reader)."""
        return self._call("Releases.Get", app=app, platform=platform, version=_v(version))

    def releases_list(self, app: str, platform: Optional[str] = None, state: Optional[str] = None,
                      page_size: Optional[int] = None, page_token: Optional[str] = None) -> Dict[str, Any]:
        """One page of releases, newest version first (reader). See `iter_releases`."""
        return self._call("Releases.List", app=app, platform=platform, state=state, pageSize=page_size,
                          pageToken=page_token)

    # ---- Associations

    def associations_get(self, host: str, kind: Optional[str] = None, revision: Optional[int] = None) -> Association:
        """A domain's generated document (`kind` aasa by default), latest or at `revision` (public)."""
        return self._call("Associations.Get", host=host, kind=kind, revision=revision)

    def associations_list_revisions(self, host: str, kind: Optional[str] = None, page_size: Optional[int] = None,
                                    page_token: Optional[str] = None) -> Dict[str, Any]:
        """One page of a domain's revisions, newest first (public). See `iter_revisions`."""
        return self._call("Associations.ListRevisions", host=host, kind=kind, pageSize=page_size,
                          pageToken=page_token)

    def associations_diff(self, host: str, from_revision: int, to_revision: int,
                          kind: Optional[str] = None) -> RuleDiff:
        """Rule-by-rule difference between two revisions (public)."""
        return self._call("Associations.Diff", host=host, kind=kind, fromRevision=from_revision,
                          toRevision=to_revision)

    def associations_preview(self, app: str, platform: str, version: Version, action: str) -> Dict[str, Any]:
        """Dry run of `action` ("publish" or "retire"): documents, diffs and lint; writes nothing (releaser)."""
        return self._call("Associations.Preview", app=app, platform=platform, version=_v(version), action=action)

    def associations_watch(self, host: str, kind: Optional[str] = None, if_none_match: Optional[str] = None,
                           timeout_ms: Optional[int] = None) -> WatchResult:
        """Long poll: returns when the document's etag differs from `if_none_match`, or after `timeout_ms`
        (default 30 s) with `notModified` true (public). The socket timeout is stretched to cover the wait."""
        wait = (timeout_ms if timeout_ms is not None else _WATCH_DEFAULT_MS) / 1000.0
        return self._call("Associations.Watch", timeout=max(self._transport.timeout, wait + 10), host=host,
                          kind=kind, ifNoneMatch=if_none_match, timeoutMs=timeout_ms)

    # ---- CanOpen, Matrix

    def can_open_get_table(self, app: str, platform: str, version: Version,
                           if_none_match: Optional[str] = None) -> CanOpenTableResult:
        """The canOpen table of a live version; `notModified` when its etag equals `if_none_match` (public)."""
        return self._call("CanOpen.GetTable", app=app, platform=platform, version=_v(version),
                          ifNoneMatch=if_none_match)

    def can_open_check(self, app: str, platform: str, version: Version, url: str) -> Decision:
        """What `version` does with `url`: open in the app, or the browser with reason and fallback (public)."""
        return self._call("CanOpen.Check", app=app, platform=platform, version=_v(version), url=url)

    def matrix_get(self, app: str, platform: str) -> Matrix:
        """Routes x live versions, each cell open / fallback / switched_off / excluded (reader)."""
        return self._call("Matrix.Get", app=app, platform=platform)

    # ---- Tokens, Audit, discovery

    def tokens_create(self, token: NewToken) -> CreatedToken:
        """Creates a token `{"displayName", "role"}`; the result's `secret` is shown only once (admin)."""
        return self._call("Tokens.Create", token=token)

    def tokens_list(self, page_size: Optional[int] = None, page_token: Optional[str] = None) -> Dict[str, Any]:
        """One page of tokens, without secrets (admin). See `iter_tokens`."""
        return self._call("Tokens.List", pageSize=page_size, pageToken=page_token)

    def tokens_revoke(self, id: str) -> Token:  # noqa: A002 - the API's param name
        """Revokes a token (admin)."""
        return self._call("Tokens.Revoke", id=id)

    def audit_list(self, resource: Optional[str] = None, page_size: Optional[int] = None,
                   page_token: Optional[str] = None) -> Dict[str, Any]:
        """One page of audit entries, newest first, optionally for one resource name (reader)."""
        return self._call("Audit.List", resource=resource, pageSize=page_size, pageToken=page_token)

    def rpc_discover(self) -> Dict[str, Any]:
        """The server's OpenRPC document (public)."""
        return self._call("rpc.discover")

    # ---- pagination

    def _pages(self, method: str, key: str, page_size: Optional[int], **params: Any) -> Iterator[Any]:
        token: Optional[str] = None
        seen = set()
        while True:
            page = self._call(method, pageSize=page_size, pageToken=token, **params) or {}
            yield from page.get(key) or []
            token = page.get("nextPageToken") or None
            if token is None:
                return
            if token in seen:
                raise ProtocolError(-32603, f"{method} returned the page token {token!r} twice", method=method)
            seen.add(token)

    def iter_apps(self, page_size: Optional[int] = None) -> Iterator[App]:
        """Every app, fetching pages as needed."""
        return self._pages("Apps.List", "apps", page_size)

    def iter_domains(self, app: Optional[str] = None, page_size: Optional[int] = None) -> Iterator[Domain]:
        """Every domain (of `app`, when given)."""
        return self._pages("Domains.List", "domains", page_size, app=app)

    def iter_routes(self, app: str, page_size: Optional[int] = None) -> Iterator[Route]:
        """Every route of `app`, in evaluation order."""
        return self._pages("Routes.List", "routes", page_size, app=app)

    def iter_releases(self, app: str, platform: Optional[str] = None, state: Optional[str] = None,
                      page_size: Optional[int] = None) -> Iterator[Release]:
        """Every release of `app`, newest version first."""
        return self._pages("Releases.List", "releases", page_size, app=app, platform=platform, state=state)

    def iter_revisions(self, host: str, kind: Optional[str] = None,
                       page_size: Optional[int] = None) -> Iterator[RevisionInfo]:
        """Every revision of a domain's document, newest first."""
        return self._pages("Associations.ListRevisions", "revisions", page_size, host=host, kind=kind)

    def iter_tokens(self, page_size: Optional[int] = None) -> Iterator[Token]:
        """Every token."""
        return self._pages("Tokens.List", "tokens", page_size)

    def iter_audit(self, resource: Optional[str] = None, page_size: Optional[int] = None) -> Iterator[AuditEntry]:
        """Every audit entry (of `resource`, when given), newest first."""
        return self._pages("Audit.List", "entries", page_size, resource=resource)

    # ---- CI

    def publish_release(self, app: str, platform: str, version: Version, fail_on: Sequence[str] = ("error",),
                        preview: bool = True, out: Optional[TextIO] = sys.stdout) -> ReleaseChange:
        """Publishes a release for a CI job: fails with `LintFailure` on lint findings of a `fail_on` severity.

        With `preview` (the default) the publish is first dry-run through `Associations.Preview`, so a
        failing lint stops the job before anything changes; findings the real publish reports are checked
        again (the release is then live, and `LintFailure.published` is true). Each domain's resulting
        revision is printed to `out` (None: silent). Errors from the server raise `RegistryError`.
        """
        release = f"{app} {platform} {_v(version)}"
        fail_on = tuple(fail_on)
        if preview:
            dry_run = self.associations_preview(app, platform, version, "publish")
            findings = list(dry_run.get("lint") or [])
            if any(f.get("severity") in fail_on for f in findings):
                raise LintFailure(release, findings, fail_on, published=False, result=dry_run)
        result = self.releases_publish(app, platform, version)
        findings = list(result.get("lint") or [])
        if out is not None:
            state = (result.get("release") or {}).get("state", "?")
            print(f"published {release}: {state}", file=out)
            for ref in result.get("revisions") or []:
                changed = "new revision" if ref.get("changed") else "unchanged"
                print(f"  {ref.get('host')} {ref.get('kind', 'aasa')} revision {ref.get('revision')} "
                      f"({changed}) etag {ref.get('etag')}", file=out)
            for finding in findings:
                route = f" [route {finding['route']}]" if finding.get("route") else ""
                print(f"  lint {finding.get('severity')} {finding.get('code')}{route}: {finding.get('message')}",
                      file=out)
        if any(f.get("severity") in fail_on for f in findings):
            raise LintFailure(release, findings, fail_on, published=True, result=result)
        return result
