"""The blocking RouteRegistry client: one method per API method (generated from Schema/registry.openrpc.json
into _methods.py), pagination helpers, and `publish_release` for CI.

Method names are the API's in snake_case (`Routes.SwitchOff` -> `routes_switch_off`), parameters the API's
params in snake_case (`pageToken` -> `page_token`). `METHODS` lists them all; a test holds it, and every
method's signature, equal to Schema/registry.openrpc.json.
"""

from __future__ import annotations

import re
import time
from typing import (
    Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, TextIO, Type, TypeVar, Union, overload,
)

from . import _links, _protocol, _publish
from ._methods import METHOD_INFO, AnyVersion, _Methods
from ._schema import (
    AppOutput, AuditEntry, DomainOutput, Platform, Release, ReleaseEventResult, RevisionInfo, RouteOutput,
    ShortLink, ShortLinkOutput, Token,
)
from ._settings import resolve_settings
from ._transport import Transport
from .errors import ProtocolError

__all__ = ["Client", "METHODS", "python_name"]

_T = TypeVar("_T")


def python_name(method: str) -> str:
    """`CanOpen.GetTable` -> `can_open_get_table`; `Links.QRCode` -> `links_qr_code`; `rpc.discover` -> `rpc_discover`."""
    return "_".join(
        re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", part).lower() for part in method.split("."))


#: Every API method and whether it is a read (safe to repeat after the request may have reached the server).
#: A write is repeated only when it carries an idempotency `requestId` or connecting failed (nothing was sent).
METHODS: Dict[str, bool] = {name: info.read_only for name, info in METHOD_INFO.items()}


class Client(_Methods):
    """A RouteRegistry API client (JSON-RPC 2.0 over HTTP, standard library only).

    `server` is the registry's base URL (`/rpc` is appended unless present); `token` the bearer secret for
    methods that need one; `timeout` the default deadline of a call in seconds, retries included (each method
    also takes `timeout=`; the server is told the remaining time in `X-Request-Timeout-Ms`, so it never
    applies a write after the client gave up); `retries` how many times a call is repeated on UNAVAILABLE or
    a connection failure, with exponential backoff from `backoff` seconds up to `max_backoff`. A write is
    repeated after it may have reached the server only when it carries an idempotency `requestId` (one
    random id per call, the same on every attempt). `with Client(...) as client:` closes it at the end.

    Errors raise the `RegistryError` subclass of their status (`NotFound`, `InvalidArgument`, ...). A client is
    safe to share between threads (one connection per call). Nothing is printed unless asked.
    """

    def __init__(self, server: str = "http://127.0.0.1:8080", token: Optional[str] = None, timeout: float = 10,
                 retries: int = 3, backoff: float = 0.25, max_backoff: float = 5.0) -> None:
        self.server = server
        self._transport = Transport(server, token, timeout, retries, backoff, max_backoff)
        self._closed = False

    @classmethod
    def from_env(cls: Type["Client"], environ: Optional[Dict[str, str]] = None, **overrides: Any) -> "Client":
        """A client configured as the `routereg` CLI is: `ROUTEREG_SERVER` / `ROUTEREG_TOKEN`, else the CLI's
        config file (`$ROUTEREG_CONFIG`, else `$XDG_CONFIG_HOME/routereg/config.json`, else
        `~/.config/routereg/config.json`, holding `{"server": ..., "token": ...}`), else
        http://127.0.0.1:8080 without a token. `overrides` (e.g. `timeout=30`) win over all of them."""
        settings: Dict[str, Any] = dict(resolve_settings(environ))
        settings.update(overrides)
        return cls(**settings)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Ends the client: later calls raise RuntimeError. (Connections are not kept between calls.)"""
        self._closed = True

    # ---- generic

    def call(self, method: str, /, timeout: Optional[float] = None, **params: Any) -> Any:
        """Calls any method by its wire name with wire (camelCase) params, e.g.
        `client.call("Apps.Get", app="badoo")`. Unknown methods are sent as well (a newer server's)."""
        return self._call(method, params, timeout)

    def _call(self, method: str, params: Dict[str, Any], timeout: Optional[float]) -> Any:
        if self._closed:
            raise RuntimeError("the client is closed")
        wire, timeout = _protocol.plan(method, params, timeout, self._transport.timeout)
        return self._transport.call(method, wire, timeout)

    # ---- pagination

    def iter_items(self, method: str, /, page_size: Optional[int] = None, timeout: Optional[float] = None,
                   **params: Any) -> Iterator[Any]:
        """Every item of a paged list method (`"Routes.List"`, ...), fetching pages as needed; `timeout` bounds
        each page's call, as it bounds any other call (here and in the named helpers below)."""
        info = METHOD_INFO.get(method)
        if info is None or info.page_items is None:
            raise ValueError(f"{method} is not a paged list method")
        return self._pages(method, info.page_items, page_size, timeout, **params)

    def _pages(self, method: str, key: str, page_size: Optional[int], timeout: Optional[float],
               **params: Any) -> Iterator[Any]:
        token: Optional[str] = None
        seen: set[str] = set()
        while True:
            page = self._call(method, {**params, "pageSize": page_size, "pageToken": token}, timeout) or {}
            yield from page.get(key) or []
            token = page.get("nextPageToken") or None
            if token is None:
                return
            if token in seen:
                raise ProtocolError(-32603, f"{method} returned the page token {token!r} twice", method=method)
            seen.add(token)

    def iter_apps(self, page_size: Optional[int] = None, *, timeout: Optional[float] = None) -> Iterator[AppOutput]:
        """Every app, fetching pages as needed."""
        return self._pages("Apps.List", "apps", page_size, timeout)

    def iter_domains(self, app: Optional[str] = None, page_size: Optional[int] = None, *,
                     timeout: Optional[float] = None) -> Iterator[DomainOutput]:
        """Every domain (of `app`, when given)."""
        return self._pages("Domains.List", "domains", page_size, timeout, app=app)

    def iter_routes(self, app: str, page_size: Optional[int] = None, *,
                    timeout: Optional[float] = None) -> Iterator[RouteOutput]:
        """Every route of `app`, in evaluation order."""
        return self._pages("Routes.List", "routes", page_size, timeout, app=app)

    def iter_releases(self, app: str, platform: Optional[str] = None, state: Optional[str] = None,
                      page_size: Optional[int] = None, *, timeout: Optional[float] = None) -> Iterator[Release]:
        """Every release of `app`, newest version first."""
        return self._pages("Releases.List", "releases", page_size, timeout, app=app, platform=platform, state=state)

    def iter_revisions(self, host: str, kind: Optional[str] = None,
                       page_size: Optional[int] = None, *, timeout: Optional[float] = None) -> Iterator[RevisionInfo]:
        """Every revision of a domain's document, newest first."""
        return self._pages("Associations.ListRevisions", "revisions", page_size, timeout, host=host, kind=kind)

    def iter_tokens(self, page_size: Optional[int] = None, *, timeout: Optional[float] = None) -> Iterator[Token]:
        """Every token."""
        return self._pages("Tokens.List", "tokens", page_size, timeout)

    def iter_audit(self, resource: Optional[str] = None, page_size: Optional[int] = None, *,
                   timeout: Optional[float] = None) -> Iterator[AuditEntry]:
        """Every audit entry (of `resource`, when given), newest first."""
        return self._pages("Audit.List", "entries", page_size, timeout, resource=resource)

    # ---- campaign links

    @overload
    def create_link(self, app: str, links: ShortLink, request_id: Optional[str] = None, *, attempts: int = 4,
                    backoff: float = 0.2, timeout: Optional[float] = None) -> ShortLinkOutput: ...

    @overload
    def create_link(self, app: str, links: Sequence[ShortLink], request_id: Optional[str] = None, *,
                    attempts: int = 4, backoff: float = 0.2,
                    timeout: Optional[float] = None) -> List[ShortLinkOutput]: ...

    def create_link(self, app: str, links: Union[ShortLink, Sequence[ShortLink]], request_id: Optional[str] = None,
                    *, attempts: int = 4, backoff: float = 0.2,
                    timeout: Optional[float] = None) -> Union[ShortLinkOutput, List[ShortLinkOutput]]:
        """Creates a short link (`Links.Create`) or, given a list, many (`Links.BatchCreate`, all or none per
        1000), for a campaign pipeline.

        One idempotency key for the whole call: `request_id` (the pipeline's own, e.g. the campaign's ID, so a
        rerun with the same links returns the first links instead of creating new ones, and one with other links
        raises InvalidArgument naming `requestId`) or a random one; a call whose outcome is
        unknown (UNAVAILABLE, DEADLINE_EXCEEDED, ABORTED) is sent again with the same key up to `attempts` times,
        waiting `backoff` seconds, doubled each time, so no link is created twice. `timeout` bounds each attempt.
        More than 1000 links are sent in batches keyed `{request_id}.{n}`; a batch that fails stops the call
        (the batches before it stay created, and a rerun with the same key returns them).
        """
        key = _links.request_key(request_id)
        if isinstance(links, Mapping):
            one: ShortLink = links
            return self._retrying(lambda: self.links_create(app, one, key, timeout=timeout), attempts, backoff)
        out: List[ShortLinkOutput] = []
        for batch_key, batch in _links.chunks(links, key):
            def send(batch: Sequence[ShortLink] = batch, batch_key: str = batch_key) -> List[ShortLinkOutput]:
                return list(self.links_batch_create(app, batch, batch_key, timeout=timeout)["links"])
            out.extend(self._retrying(send, attempts, backoff))
        return out

    def _retrying(self, attempt: Callable[[], _T], attempts: int, backoff: float) -> _T:
        for n in range(1, max(1, attempts) + 1):
            try:
                return attempt()
            except Exception as error:
                if n >= attempts or not _links.outcome_unknown(error):
                    raise
                time.sleep(backoff * 2 ** (n - 1))
        raise AssertionError("unreachable")

    # ---- CI

    def publish_release(self, app: str, platform: Platform, version: AnyVersion, fail_on: Sequence[str] = ("error",),
                        preview: bool = True, out: Optional[TextIO] = None, *,
                        timeout: Optional[float] = None) -> ReleaseEventResult:
        """Publishes a release for a CI job: fails with `LintFailure` on lint findings of a `fail_on` severity.

        With `preview` (the default) the publish is first dry-run through `Associations.Preview`, so a
        failing lint stops the job before anything changes; findings the real publish reports are checked
        again (the release is then live, and `LintFailure.published` is true). Each domain's resulting
        revision is printed to `out` when given (by default nothing is printed). `timeout` (seconds) bounds the
        preview and the publish together (the client's default bounds each); once it has passed the publish is
        not sent. Errors from the server raise `RegistryError`.
        """
        release = _publish.release_name(app, platform, version)
        fail_on = tuple(fail_on)
        deadline = _publish.deadline(timeout)
        if preview:
            dry_run = self.associations_preview(app, platform, version, "publish", timeout=timeout)
            _publish.check_lint(release, dry_run, fail_on, published=False)
        result = self.releases_publish(app, platform, version, timeout=_publish.remaining(release, deadline))
        _publish.report(release, result, out)
        _publish.check_lint(release, result, fail_on, published=True)
        return result
