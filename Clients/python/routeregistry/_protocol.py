"""What the blocking and the asyncio transports share, without any I/O: the server address, the request's
bytes and headers, decoding an answer into a result or an error, and the retry rule.

The retry rule: a failure while connecting (nothing was sent) may be retried for any method; once the request
may have reached the server, only a read, or a write carrying an idempotency `requestId` (the same on every
attempt, so the server applies it once), may be repeated, and only for UNAVAILABLE. A TLS or HTTP mistake (an
https URL for a plain-HTTP server, a server that does not speak HTTP) is a ProtocolError and never retried:
repeating it cannot help.
"""

from __future__ import annotations

import http.client
import json
import random
import uuid
from typing import Any, Dict, Optional, Tuple
from urllib.parse import urlsplit

from ._methods import METHOD_INFO
from .errors import ProtocolError, RegistryError, Status, TransportError, error_for

USER_AGENT = "routeregistry-python/1.0.0"

# Gateway answers without a JSON-RPC body: the call did not reach (or did not finish in) the registry.
GATEWAY_STATUSES = {502, 503, 504}


class Endpoint:
    """The registry's address: scheme, host, port and the JSON-RPC path (`/rpc` appended unless present)."""

    def __init__(self, server: str) -> None:
        parts = urlsplit(server if "://" in server else "http://" + server)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"server must be an http(s) URL, got {server!r}")
        self.scheme = parts.scheme
        self.host: str = parts.hostname
        self.port = parts.port or (443 if parts.scheme == "https" else 80)
        path = parts.path.rstrip("/")
        self.path = path if path.endswith("/rpc") else path + "/rpc"


_WATCH_DEFAULT_MS = 30000


def plan(method: str, params: Dict[str, Any], timeout: Optional[float],
         default_timeout: float) -> Tuple[Optional[Dict[str, Any]], Optional[float]]:
    """The params to send (none for a method that takes none, as rpc.discover) and the call's deadline: a
    long poll's covers the wait it asked the server for, plus a margin."""
    info = METHOD_INFO.get(method)
    if method == "Associations.Watch":
        wait = (params.get("timeoutMs") or _WATCH_DEFAULT_MS) / 1000.0
        timeout = max(timeout if timeout is not None else default_timeout, wait + 10)
    return (None if info is not None and not info.params else params), timeout


def prepare(method: str, params: Optional[Dict[str, Any]]) -> Optional[Dict[str, Any]]:
    """The wire params of one logical call: absent optionals left out, and a fresh `requestId` for a write
    that takes one (kept by the caller's retry loop, so every attempt sends the same)."""
    if params is None:
        return None
    present = {name: value for name, value in params.items() if value is not None}
    info = METHOD_INFO.get(method)
    if info is not None and info.request_id and "requestId" not in present:
        present["requestId"] = uuid.uuid4().hex
    return present


def encode(method: str, params: Optional[Dict[str, Any]], request_id: int) -> bytes:
    body: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        body["params"] = params
    return json.dumps(body).encode("utf-8")


def headers(token: Optional[str], deadline_ms: Optional[int], length: int) -> Dict[str, str]:
    result = {
        "Content-Type": "application/json",
        "Accept": "application/json",
        "User-Agent": USER_AGENT,
        "Content-Length": str(length),
        "Connection": "close",
    }
    if token:
        result["Authorization"] = f"Bearer {token}"
    if deadline_ms is not None:
        # The server then never applies a write after the client stopped waiting for it.
        result["X-Request-Timeout-Ms"] = str(max(1, deadline_ms))
    return result


def may_retry(method: str, error: Exception) -> bool:
    """Whether `error` of one attempt allows another (attempts and deadline are the caller's business)."""
    if isinstance(error, TransportError) and not error.sent:
        return True
    if not isinstance(error, RegistryError) or error.code != Status.UNAVAILABLE:
        return False
    info = METHOD_INFO.get(method)
    return info is not None and (info.read_only or info.request_id)


def backoff_delay(attempt: int, backoff: float, max_backoff: float) -> float:
    # Exponential backoff with jitter, so clients retrying together do not arrive together.
    return float(min(max_backoff, backoff * (2 ** attempt)) * random.uniform(0.5, 1.0))


def decode(method: str, request_id: int, status: int, payload: bytes) -> Any:
    """The result of an HTTP answer, or the error it carries."""
    try:
        message = json.loads(payload.decode("utf-8")) if payload else None
    except (UnicodeDecodeError, ValueError):
        message = None
    if not (isinstance(message, dict) and message.get("jsonrpc") == "2.0" and ("result" in message or "error" in message)):
        if status in GATEWAY_STATUSES:
            raise TransportError(f"the registry is unavailable (HTTP {status})", method, sent=True)
        if status == 200:
            raise ProtocolError(-32700, "the server's answer is not a JSON-RPC response", http_status=status,
                                method=method)
        reason = http.client.responses.get(status, "")
        raise ProtocolError(None, f"{reason} (no JSON-RPC answer)".strip(), http_status=status, method=method)
    if "error" in message and message["error"] is not None:
        raise error_from(method, message["error"], status)
    if message.get("id") != request_id:
        raise ProtocolError(-32603, f"the answer's id {message.get('id')!r} is not the request's {request_id}",
                            http_status=status, method=method)
    return message.get("result")


def error_from(method: str, error: Any, http_status: int) -> Exception:
    if not isinstance(error, dict) or not isinstance(error.get("code"), int):
        return ProtocolError(-32603, f"malformed error object: {error!r}", http_status=http_status, method=method)
    code: int = error["code"]
    text = str(error.get("message", ""))
    data = error.get("data")
    status = data.get("status") if isinstance(data, dict) else None
    details = data.get("details") if isinstance(data, dict) else None
    details = details if isinstance(details, list) else None
    if -32768 <= code <= -32000:
        # -32602 with data.status INVALID_ARGUMENT is bad input like any other: one family for callers.
        if isinstance(status, str) and code == -32602:
            return error_for(code, status, text, details, method, jsonrpc_code=code)
        return ProtocolError(code, text, data, http_status=http_status, method=method)
    return error_for(code, status if isinstance(status, str) else None, text, details, method)


def split_status_line(head: bytes) -> Tuple[int, Dict[str, str]]:
    """The status and the lower-cased headers of an HTTP/1.x response head (for the asyncio transport)."""
    lines = head.decode("iso-8859-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1.") or not parts[1].isdigit():
        raise http.client.BadStatusLine(lines[0][:80])
    fields: Dict[str, str] = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            fields[name.strip().lower()] = value.strip()
    return int(parts[1]), fields
