"""JSON-RPC 2.0 over HTTP POST with http.client, with retries that never repeat a write the server may have
applied unless it carries an idempotency key (see _protocol.py for the rule).

Built on http.client (what urllib uses underneath) rather than urllib.request, because the retry rule needs
to know *where* a failure happened: a failure while connecting means nothing was sent; a failure after the
request started leaves a write's outcome unknown. urllib.request folds both into one URLError.
"""

from __future__ import annotations

import http.client
import itertools
import socket
import ssl
import time
from typing import Any, Callable, Dict, Optional, Tuple

from . import _protocol
from .errors import DeadlineExceeded, ProtocolError, RegistryError, TransportError


class _NotSent(Exception):
    """Connecting failed: the request never left this process."""


class _MaybeSent(Exception):
    """The request may have reached the server; its outcome is unknown."""


class Transport:
    """Sends one JSON-RPC request per HTTP connection and decodes the answer."""

    def __init__(self, server: str, token: Optional[str], timeout: float, retries: int, backoff: float,
                 max_backoff: float, sleep: Callable[[float], None] = time.sleep) -> None:
        self.endpoint = _protocol.Endpoint(server)
        self.token = token
        self.timeout = timeout
        self.retries = max(0, retries)
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.sleep = sleep
        self._ids = itertools.count(1)

    def call(self, method: str, params: Optional[Dict[str, Any]], timeout: Optional[float] = None) -> Any:
        """Calls `method`, retrying as the rule allows, within `timeout` seconds overall (the client's default
        when None); past it the call fails DEADLINE_EXCEEDED and the server was told not to go on."""
        params = _protocol.prepare(method, params)
        budget = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + budget
        attempt = 0
        error: Optional[Exception] = None
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:  # spent between attempts: the last attempt's error says more than the clock
                raise error or DeadlineExceeded(4, None, f"deadline of {budget:g} s exceeded", method=method)
            request_id = next(self._ids)
            body = _protocol.encode(method, params, request_id)
            try:
                status, payload = self._post(body, remaining)
                return _protocol.decode(method, request_id, status, payload)
            except ProtocolError as failure:
                failure.method = failure.method or method  # raised below the call, which knows the method
                raise
            except _NotSent as failure:
                error = TransportError(f"cannot connect to the registry: {failure}", method, sent=False)
            except _MaybeSent as failure:
                if time.monotonic() >= deadline:
                    raise DeadlineExceeded(4, None, f"deadline of {budget:g} s exceeded ({failure})",
                                           method=method) from None
                error = TransportError(f"connection to the registry failed: {failure}", method, sent=True)
            except RegistryError as failure:
                error = failure
            if not _protocol.may_retry(method, error) or attempt >= self.retries:
                raise error
            delay = _protocol.backoff_delay(attempt, self.backoff, self.max_backoff)
            if time.monotonic() + delay >= deadline:
                raise error
            self.sleep(delay)
            attempt += 1

    def _post(self, body: bytes, timeout: float) -> Tuple[int, bytes]:
        endpoint = self.endpoint
        if endpoint.scheme == "https":
            connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                endpoint.host, endpoint.port, timeout=timeout, context=ssl.create_default_context())
        else:
            connection = http.client.HTTPConnection(endpoint.host, endpoint.port, timeout=timeout)
        headers = _protocol.headers(self.token, int(timeout * 1000), len(body))
        try:
            try:
                connection.connect()
            except ssl.SSLError as failure:
                raise _tls_mistake(endpoint, failure) from None
            except (OSError, http.client.HTTPException) as failure:
                raise _NotSent(_describe(failure)) from None
            try:
                connection.request("POST", endpoint.path, body=body, headers=headers)
                response = connection.getresponse()
                return response.status, response.read()
            except http.client.RemoteDisconnected as failure:  # a BadStatusLine too, but it only hung up
                raise _MaybeSent(_describe(failure)) from None
            except http.client.BadStatusLine as failure:
                raise ProtocolError(None, f"the server at {endpoint.host}:{endpoint.port} does not speak HTTP "
                                          f"({_describe(failure)})") from None
            except (OSError, http.client.HTTPException) as failure:
                raise _MaybeSent(_describe(failure)) from None
        finally:
            connection.close()


def _tls_mistake(endpoint: _protocol.Endpoint, failure: ssl.SSLError) -> ProtocolError:
    hint = " (is it a plain http:// server?)" if "WRONG_VERSION_NUMBER" in str(failure) else ""
    return ProtocolError(None, f"TLS with {endpoint.host}:{endpoint.port} failed{hint}: {_describe(failure)}")


def _describe(failure: BaseException) -> str:
    if isinstance(failure, socket.timeout):
        return "timed out"
    return str(failure) or type(failure).__name__
