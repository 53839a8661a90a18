"""The asyncio RouteRegistry client: the same methods as `Client` (generated into _methods.py), as coroutines,
on the standard library's asyncio streams.

    async with AsyncClient.from_env() as client:
        decision = await client.can_open_check("badoo", "ios", "5.11.0", "https://m.badoo.com/l/a/42")
        async for route in client.iter_items("Routes.List", app="badoo"):
            ...
"""

from __future__ import annotations

import asyncio
from typing import (
    Any, AsyncIterator, Awaitable, Callable, Dict, List, Mapping, Optional, Sequence, TextIO, Type, TypeVar, Union,
    overload,
)

from . import _links, _protocol, _publish
from ._async_transport import AsyncTransport
from ._methods import METHOD_INFO, AnyVersion, _AsyncMethods
from ._schema import (
    AppOutput, AuditEntry, DomainOutput, Platform, Release, ReleaseEventResult, RevisionInfo, RouteOutput,
    ShortLink, ShortLinkOutput, Token,
)

_T = TypeVar("_T")
from ._settings import resolve_settings
from .errors import ProtocolError

__all__ = ["AsyncClient"]


class AsyncClient(_AsyncMethods):
    """A RouteRegistry API client for asyncio programs; options, deadlines, retries and errors as `Client`'s."""

    def __init__(self, server: str = "http://127.0.0.1:8080", token: Optional[str] = None, timeout: float = 10,
                 retries: int = 3, backoff: float = 0.25, max_backoff: float = 5.0) -> None:
        self.server = server
        self._transport = AsyncTransport(server, token, timeout, retries, backoff, max_backoff)
        self._closed = False

    @classmethod
    def from_env(cls: Type["AsyncClient"], environ: Optional[Dict[str, str]] = None,
                 **overrides: Any) -> "AsyncClient":
        """Configured as the `routereg` CLI is (see `Client.from_env`)."""
        settings: Dict[str, Any] = dict(resolve_settings(environ))
        settings.update(overrides)
        return cls(**settings)

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Ends the client: later calls raise RuntimeError. (Connections are not kept between calls.)"""
        self._closed = True

    async def call(self, method: str, /, timeout: Optional[float] = None, **params: Any) -> Any:
        """Calls any method by its wire name with wire (camelCase) params."""
        return await self._call(method, params, timeout)

    async def _call(self, method: str, params: Dict[str, Any], timeout: Optional[float]) -> Any:
        if self._closed:
            raise RuntimeError("the client is closed")
        wire, timeout = _protocol.plan(method, params, timeout, self._transport.timeout)
        return await self._transport.call(method, wire, timeout)

    async def iter_items(self, method: str, /, page_size: Optional[int] = None, timeout: Optional[float] = None,
                         **params: Any) -> AsyncIterator[Any]:
        """Every item of a paged list method (`"Routes.List"`, ...), fetching pages as needed; `timeout` bounds
        each page's call (here and in the named helpers below)."""
        info = METHOD_INFO.get(method)
        if info is None or info.page_items is None:
            raise ValueError(f"{method} is not a paged list method")
        token: Optional[str] = None
        seen: set[str] = set()
        while True:
            page = await self._call(method, {**params, "pageSize": page_size, "pageToken": token}, timeout) or {}
            for item in page.get(info.page_items) or []:
                yield item
            token = page.get("nextPageToken") or None
            if token is None:
                return
            if token in seen:
                raise ProtocolError(-32603, f"{method} returned the page token {token!r} twice", method=method)
            seen.add(token)

    # The named helpers yield typed items, as `Client`'s do.

    async def iter_apps(self, page_size: Optional[int] = None, *,
                        timeout: Optional[float] = None) -> AsyncIterator[AppOutput]:
        """Every app, fetching pages as needed."""
        async for item in self.iter_items("Apps.List", page_size, timeout):
            yield item

    async def iter_domains(self, app: Optional[str] = None, page_size: Optional[int] = None, *,
                           timeout: Optional[float] = None) -> AsyncIterator[DomainOutput]:
        """Every domain (of `app`, when given)."""
        async for item in self.iter_items("Domains.List", page_size, timeout, app=app):
            yield item

    async def iter_routes(self, app: str, page_size: Optional[int] = None, *,
                          timeout: Optional[float] = None) -> AsyncIterator[RouteOutput]:
        """Every route of `app`, in evaluation order."""
        async for item in self.iter_items("Routes.List", page_size, timeout, app=app):
            yield item

    async def iter_releases(self, app: str, platform: Optional[str] = None, state: Optional[str] = None,
                            page_size: Optional[int] = None, *,
                            timeout: Optional[float] = None) -> AsyncIterator[Release]:
        """Every release of `app`, newest version first."""
        async for item in self.iter_items("Releases.List", page_size, timeout, app=app, platform=platform,
                                          state=state):
            yield item

    async def iter_revisions(self, host: str, kind: Optional[str] = None, page_size: Optional[int] = None, *,
                             timeout: Optional[float] = None) -> AsyncIterator[RevisionInfo]:
        """Every revision of a domain's document, newest first."""
        async for item in self.iter_items("Associations.ListRevisions", page_size, timeout, host=host, kind=kind):
            yield item

    async def iter_tokens(self, page_size: Optional[int] = None, *,
                          timeout: Optional[float] = None) -> AsyncIterator[Token]:
        """Every token."""
        async for item in self.iter_items("Tokens.List", page_size, timeout):
            yield item

    async def iter_audit(self, resource: Optional[str] = None, page_size: Optional[int] = None, *,
                         timeout: Optional[float] = None) -> AsyncIterator[AuditEntry]:
        """Every audit entry (of `resource`, when given), newest first."""
        async for item in self.iter_items("Audit.List", page_size, timeout, resource=resource):
            yield item

    @overload
    async def create_link(self, app: str, links: ShortLink, request_id: Optional[str] = None, *, attempts: int = 4,
                          backoff: float = 0.2, timeout: Optional[float] = None) -> ShortLinkOutput: ...

    @overload
    async def create_link(self, app: str, links: Sequence[ShortLink], request_id: Optional[str] = None, *,
                          attempts: int = 4, backoff: float = 0.2,
                          timeout: Optional[float] = None) -> List[ShortLinkOutput]: ...

    async def create_link(self, app: str, links: Union[ShortLink, Sequence[ShortLink]],
                          request_id: Optional[str] = None, *, attempts: int = 4, backoff: float = 0.2,
                          timeout: Optional[float] = None) -> Union[ShortLinkOutput, List[ShortLinkOutput]]:
        """`Client.create_link` for asyncio: one link or a batch, one idempotency key, a call whose outcome is
        unknown sent again with the same key."""
        key = _links.request_key(request_id)
        if isinstance(links, Mapping):
            one: ShortLink = links
            return await self._retrying(lambda: self.links_create(app, one, key, timeout=timeout), attempts, backoff)
        out: List[ShortLinkOutput] = []
        for batch_key, batch in _links.chunks(links, key):
            async def send(batch: Sequence[ShortLink] = batch, batch_key: str = batch_key) -> List[ShortLinkOutput]:
                return list((await self.links_batch_create(app, batch, batch_key, timeout=timeout))["links"])
            out.extend(await self._retrying(send, attempts, backoff))
        return out

    async def _retrying(self, attempt: Callable[[], Awaitable[_T]], attempts: int, backoff: float) -> _T:
        for n in range(1, max(1, attempts) + 1):
            try:
                return await attempt()
            except Exception as error:
                if n >= attempts or not _links.outcome_unknown(error):
                    raise
                await asyncio.sleep(backoff * 2 ** (n - 1))
        raise AssertionError("unreachable")

    async def publish_release(self, app: str, platform: Platform, version: AnyVersion,
                              fail_on: Sequence[str] = ("error",), preview: bool = True,
                              out: Optional[TextIO] = None, *,
                              timeout: Optional[float] = None) -> ReleaseEventResult:
        """Publishes a release for a CI job, as `Client.publish_release` does: a dry run through
        `Associations.Preview` first (with `preview`), `LintFailure` on lint findings of a `fail_on` severity,
        each domain's resulting revision printed to `out` only when given, `timeout` over both calls."""
        release = _publish.release_name(app, platform, version)
        fail_on = tuple(fail_on)
        deadline = _publish.deadline(timeout)
        if preview:
            dry_run = await self.associations_preview(app, platform, version, "publish", timeout=timeout)
            _publish.check_lint(release, dry_run, fail_on, published=False)
        result = await self.releases_publish(app, platform, version, timeout=_publish.remaining(release, deadline))
        _publish.report(release, result, out)
        _publish.check_lint(release, result, fail_on, published=True)
        return result
