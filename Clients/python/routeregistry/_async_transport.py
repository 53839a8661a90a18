"""JSON-RPC 2.0 over HTTP/1.1 on asyncio streams (standard library only), with the same retry rule and
deadlines as the blocking transport (_protocol.py). One connection per call, closed after the answer."""

from __future__ import annotations

import asyncio
import http.client
import itertools
import ssl
from typing import Any, Awaitable, Callable, Dict, List, Optional, Tuple

from . import _protocol
from .errors import DeadlineExceeded, ProtocolError, RegistryError, TransportError


class _NotSent(Exception):
    """Connecting failed: the request never left this process."""


class _MaybeSent(Exception):
    """The request may have reached the server; its outcome is unknown."""


class AsyncTransport:
    """Sends one JSON-RPC request per connection and decodes the answer."""

    def __init__(self, server: str, token: Optional[str], timeout: float, retries: int, backoff: float,
                 max_backoff: float, sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
        self.endpoint = _protocol.Endpoint(server)
        self.token = token
        self.timeout = timeout
        self.retries = max(0, retries)
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.sleep = sleep
        self._ids = itertools.count(1)

    async def call(self, method: str, params: Optional[Dict[str, Any]], timeout: Optional[float] = None) -> Any:
        """Calls `method` within `timeout` seconds overall (retries included), as `Transport.call`."""
        loop = asyncio.get_running_loop()
        params = _protocol.prepare(method, params)
        budget = self.timeout if timeout is None else timeout
        deadline = loop.time() + budget
        attempt = 0
        error: Optional[Exception] = None
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:  # spent between attempts: the last attempt's error says more than the clock
                raise error or DeadlineExceeded(4, None, f"deadline of {budget:g} s exceeded", method=method)
            request_id = next(self._ids)
            body = _protocol.encode(method, params, request_id)
            try:
                status, payload = await asyncio.wait_for(self._post(body, remaining), remaining)
                return _protocol.decode(method, request_id, status, payload)
            except asyncio.TimeoutError:
                raise DeadlineExceeded(4, None, f"deadline of {budget:g} s exceeded", method=method) from None
            except ProtocolError as failure:
                failure.method = failure.method or method  # raised below the call, which knows the method
                raise
            except _NotSent as failure:
                error = TransportError(f"cannot connect to the registry: {failure}", method, sent=False)
            except _MaybeSent as failure:
                error = TransportError(f"connection to the registry failed: {failure}", method, sent=True)
            except RegistryError as failure:
                error = failure
            if not _protocol.may_retry(method, error) or attempt >= self.retries:
                raise error
            delay = _protocol.backoff_delay(attempt, self.backoff, self.max_backoff)
            if loop.time() + delay >= deadline:
                raise error
            await self.sleep(delay)
            attempt += 1

    async def _post(self, body: bytes, timeout: float) -> Tuple[int, bytes]:
        endpoint = self.endpoint
        context = ssl.create_default_context() if endpoint.scheme == "https" else None
        try:
            reader, writer = await asyncio.open_connection(endpoint.host, endpoint.port, ssl=context)
        except ssl.SSLError as failure:
            hint = " (is it a plain http:// server?)" if "WRONG_VERSION_NUMBER" in str(failure) else ""
            raise ProtocolError(None, f"TLS with {endpoint.host}:{endpoint.port} failed{hint}: {failure}") from None
        except OSError as failure:
            raise _NotSent(str(failure) or type(failure).__name__) from None
        try:
            head = [f"POST {endpoint.path} HTTP/1.1", f"Host: {endpoint.host}:{endpoint.port}"]
            head += [f"{name}: {value}" for name, value in
                     _protocol.headers(self.token, int(timeout * 1000), len(body)).items()]
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
            await writer.drain()
            return await _read_response(reader)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as failure:
            raise _MaybeSent(str(failure) or type(failure).__name__) from None
        finally:
            writer.close()
            try:
                await writer.wait_closed()
            except (OSError, ssl.SSLError):
                pass


async def _read_response(reader: asyncio.StreamReader) -> Tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    try:
        status, fields = _protocol.split_status_line(head[:-4])
    except http.client.BadStatusLine as failure:
        raise ProtocolError(None, f"the server does not speak HTTP ({failure})") from None
    if "chunked" in fields.get("transfer-encoding", "").lower():
        chunks: List[bytes] = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0].strip(), 16)
            if size == 0:
                await reader.readuntil(b"\r\n")
                return status, b"".join(chunks)
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
    if "content-length" in fields:
        return status, await reader.readexactly(int(fields["content-length"]))
    return status, await reader.read()
