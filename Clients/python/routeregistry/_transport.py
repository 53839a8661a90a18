"""JSON-RPC 2.0 over HTTP POST, with retries that never repeat a write the server may have applied.

Built on http.client (what urllib uses underneath) rather than urllib.request, because the retry rule needs
to know *where* a failure happened: a failure while connecting means nothing was sent, so any call may be
retried; a failure after the request started leaves a write's outcome unknown, so only idempotent calls are
retried. urllib.request folds both into one URLError.
"""

from __future__ import annotations

import http.client
import itertools
import json
import random
import socket
import ssl
import time
from typing import Any, Callable, Dict, Optional, Tuple
from urllib.parse import urlsplit

from .errors import ProtocolError, RegistryError, Status, TransportError

USER_AGENT = "routeregistry-python/1.0.0"

# Gateway answers without a JSON-RPC body: the call did not reach (or did not finish in) the registry.
_GATEWAY_STATUSES = {502, 503, 504}


class _NotSent(Exception):
    """Connecting failed: the request never left this process."""


class _MaybeSent(Exception):
    """The request may have reached the server; its outcome is unknown."""


class Transport:
    """Sends one JSON-RPC request per HTTP connection and decodes the answer."""

    def __init__(self, server: str, token: Optional[str], timeout: float, retries: int, backoff: float,
                 max_backoff: float, request_timeout_ms: Optional[int] = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        parts = urlsplit(server if "://" in server else "http://" + server)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"server must be an http(s) URL, got {server!r}")
        self.scheme = parts.scheme
        self.host = parts.hostname
        self.port = parts.port
        path = parts.path.rstrip("/")
        self.path = path if path.endswith("/rpc") else path + "/rpc"
        self.token = token
        self.timeout = timeout
        self.retries = max(0, retries)
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.request_timeout_ms = request_timeout_ms
        self.sleep = sleep
        self._ids = itertools.count(1)

    def call(self, method: str, params: Optional[Dict[str, Any]], idempotent: bool,
             timeout: Optional[float] = None) -> Any:
        """Calls `method` and returns its result, retrying as the call's idempotency allows."""
        attempt = 0
        while True:
            request_id = next(self._ids)
            body: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
            if params is not None:
                body["params"] = params
            try:
                status, payload = self._post(json.dumps(body).encode("utf-8"), timeout or self.timeout)
                return self._decode(method, request_id, status, payload)
            except _NotSent as failure:
                error: RegistryError = TransportError(f"cannot connect to the registry: {failure}", method, sent=False)
                retry = True
            except _MaybeSent as failure:
                error = TransportError(f"connection to the registry failed: {failure}", method, sent=True)
                retry = idempotent
            except RegistryError as failure:
                error = failure
                retry = idempotent and failure.code == Status.UNAVAILABLE
            if not retry or attempt >= self.retries:
                raise error
            self.sleep(self._delay(attempt))
            attempt += 1

    def _delay(self, attempt: int) -> float:
        # Exponential backoff with jitter, so clients retrying together do not arrive together.
        return min(self.max_backoff, self.backoff * (2 ** attempt)) * random.uniform(0.5, 1.0)

    def _post(self, body: bytes, timeout: float) -> Tuple[int, bytes]:
        if self.scheme == "https":
            connection: http.client.HTTPConnection = http.client.HTTPSConnection(
                self.host, self.port, timeout=timeout, context=ssl.create_default_context())
        else:
            connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json",
            "User-Agent": USER_AGENT,
            "Connection": "close",
        }
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.request_timeout_ms:
            headers["X-Request-Timeout-Ms"] = str(self.request_timeout_ms)
        try:
            try:
                connection.connect()
            except (OSError, http.client.HTTPException) as failure:
                raise _NotSent(_describe(failure)) from None
            try:
                connection.request("POST", self.path, body=body, headers=headers)
                response = connection.getresponse()
                return response.status, response.read()
            except (OSError, http.client.HTTPException) as failure:
                raise _MaybeSent(_describe(failure)) from None
        finally:
            connection.close()

    def _decode(self, method: str, request_id: int, status: int, payload: bytes) -> Any:
        try:
            message = json.loads(payload.decode("utf-8")) if payload else None
        except (UnicodeDecodeError, ValueError):
            message = None
        if not (isinstance(message, dict) and message.get("jsonrpc") == "2.0" and ("result" in message or "error" in message)):
            if status in _GATEWAY_STATUSES:
                raise TransportError(f"the registry is unavailable (HTTP {status})", method, sent=True)
            if status == 200:
                raise ProtocolError(-32700, "the server's answer is not a JSON-RPC response", http_status=status,
                                    method=method)
            reason = http.client.responses.get(status, "")
            raise ProtocolError(None, f"{reason} (no JSON-RPC answer)".strip(), http_status=status, method=method)
        if "error" in message and message["error"] is not None:
            raise _error(method, message["error"], status)
        if message.get("id") != request_id:
            raise ProtocolError(-32603, f"the answer's id {message.get('id')!r} is not the request's {request_id}",
                                http_status=status, method=method)
        return message.get("result")


def _error(method: str, error: Any, http_status: int) -> Exception:
    if not isinstance(error, dict) or not isinstance(error.get("code"), int):
        return ProtocolError(-32603, f"malformed error object: {error!r}", http_status=http_status, method=method)
    code = error["code"]
    text = str(error.get("message", ""))
    data = error.get("data")
    if -32768 <= code <= -32000:
        return ProtocolError(code, text, data, http_status=http_status, method=method)
    status = data.get("status") if isinstance(data, dict) else None
    details = data.get("details") if isinstance(data, dict) else None
    return RegistryError(code, status if isinstance(status, str) else None, text,
                         details if isinstance(details, list) else None, method=method)


def _describe(failure: BaseException) -> str:
    if isinstance(failure, socket.timeout):
        return "timed out"
    text = str(failure) or type(failure).__name__
    return text
