"""Errors raised by the client: one hierarchy under `RouteRegistryError`.

`RegistryError` carries a gRPC-style error exactly as the server sent it (`code`, `status`, `message`,
`details`), raised as the subclass of its status (`NotFound`, `AlreadyExists`, `InvalidArgument`, ...), as
google-api-core does. Bad params are `InvalidArgument` whether the server refused them as an application error
(code 3) or as the JSON-RPC protocol error -32602 it uses for params it cannot decode at all (its
`data.status` is INVALID_ARGUMENT). `ProtocolError` is left for the other protocol errors (-32700, -32600,
-32601, -32603) and for answers that are not JSON-RPC at all (a TLS or HTTP mistake, a non-registry server);
it is never retried. `LintFailure` is raised by `Client.publish_release` when lint finds what the caller
said must fail the job.
"""

from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, Sequence, Type

__all__ = [
    "Status",
    "status_name",
    "RouteRegistryError",
    "RegistryError",
    "Cancelled", "Unknown", "InvalidArgument", "DeadlineExceeded", "NotFound", "AlreadyExists",
    "PermissionDenied", "ResourceExhausted", "FailedPrecondition", "Aborted", "OutOfRange", "Unimplemented",
    "Internal", "Unavailable", "DataLoss", "Unauthenticated",
    "error_for",
    "TransportError",
    "ProtocolError",
    "LintFailure",
]


class Status:
    """gRPC status codes, the vocabulary of `error.code`."""

    OK = 0
    CANCELLED = 1
    UNKNOWN = 2
    INVALID_ARGUMENT = 3
    DEADLINE_EXCEEDED = 4
    NOT_FOUND = 5
    ALREADY_EXISTS = 6
    PERMISSION_DENIED = 7
    RESOURCE_EXHAUSTED = 8
    FAILED_PRECONDITION = 9
    ABORTED = 10
    OUT_OF_RANGE = 11
    UNIMPLEMENTED = 12
    INTERNAL = 13
    UNAVAILABLE = 14
    DATA_LOSS = 15
    UNAUTHENTICATED = 16


_NAMES = {value: name for name, value in vars(Status).items() if name.isupper()}


def status_name(code: int) -> str:
    """`NOT_FOUND` for 5; `CODE_<n>` for a code this client does not know (a newer server's)."""
    return _NAMES.get(code, f"CODE_{code}")


class RouteRegistryError(Exception):
    """Base of every error this package raises."""


class RegistryError(RouteRegistryError):
    """An application error: the server refused the call with a gRPC status.

    `details` holds the field violations of an INVALID_ARGUMENT (`[{"field", "description"}]`).
    """

    def __init__(self, code: int, status: Optional[str], message: str, details: Optional[List[Dict[str, Any]]] = None,
                 method: Optional[str] = None, jsonrpc_code: Optional[int] = None) -> None:
        self.code = code
        #: The JSON-RPC protocol code when the server answered with one (-32602 for undecodable params).
        self.jsonrpc_code = jsonrpc_code
        self.status = status or status_name(code)
        self.message = message
        self.details = list(details or [])
        self.method = method
        super().__init__(str(self))

    def __str__(self) -> str:
        text = f"{self.status} ({self.code}): {self.message}"
        if self.method:
            text = f"{self.method}: {text}"
        for item in self.details:
            if isinstance(item, dict) and "field" in item:
                text += f"\n  {item.get('field')}: {item.get('description', '')}"
        return text

    @property
    def retryable(self) -> bool:
        """True for UNAVAILABLE: the call may succeed later (for a write, only if it was never applied)."""
        return self.code == Status.UNAVAILABLE


class Cancelled(RegistryError):
    """CANCELLED (1)."""


class Unknown(RegistryError):
    """UNKNOWN (2)."""


class InvalidArgument(RegistryError):
    """INVALID_ARGUMENT (3): a param is malformed; `details` names the fields."""


class DeadlineExceeded(RegistryError):
    """DEADLINE_EXCEEDED (4): the call's deadline passed."""


class NotFound(RegistryError):
    """NOT_FOUND (5)."""


class AlreadyExists(RegistryError):
    """ALREADY_EXISTS (6)."""


class PermissionDenied(RegistryError):
    """PERMISSION_DENIED (7): the token's role may not call the method."""


class ResourceExhausted(RegistryError):
    """RESOURCE_EXHAUSTED (8)."""


class FailedPrecondition(RegistryError):
    """FAILED_PRECONDITION (9)."""


class Aborted(RegistryError):
    """ABORTED (10): a stale etag, or a conflict with a concurrent write."""


class OutOfRange(RegistryError):
    """OUT_OF_RANGE (11)."""


class Unimplemented(RegistryError):
    """UNIMPLEMENTED (12)."""


class Internal(RegistryError):
    """INTERNAL (13): a server bug; the message carries a request id."""


class Unavailable(RegistryError):
    """UNAVAILABLE (14): retryable with backoff (the client already did, as far as it was safe)."""


class DataLoss(RegistryError):
    """DATA_LOSS (15)."""


class Unauthenticated(RegistryError):
    """UNAUTHENTICATED (16): missing, unknown or revoked token."""


_CLASSES: Dict[int, Type[RegistryError]] = {
    Status.CANCELLED: Cancelled, Status.UNKNOWN: Unknown, Status.INVALID_ARGUMENT: InvalidArgument,
    Status.DEADLINE_EXCEEDED: DeadlineExceeded, Status.NOT_FOUND: NotFound, Status.ALREADY_EXISTS: AlreadyExists,
    Status.PERMISSION_DENIED: PermissionDenied, Status.RESOURCE_EXHAUSTED: ResourceExhausted,
    Status.FAILED_PRECONDITION: FailedPrecondition, Status.ABORTED: Aborted, Status.OUT_OF_RANGE: OutOfRange,
    Status.UNIMPLEMENTED: Unimplemented, Status.INTERNAL: Internal, Status.UNAVAILABLE: Unavailable,
    Status.DATA_LOSS: DataLoss, Status.UNAUTHENTICATED: Unauthenticated,
}
_CODES = {name: value for value, name in _NAMES.items()}


def error_for(code: int, status: Optional[str], message: str, details: Optional[List[Dict[str, Any]]] = None,
              method: Optional[str] = None, jsonrpc_code: Optional[int] = None) -> RegistryError:
    """The `RegistryError` subclass of `code`; a JSON-RPC protocol error (`jsonrpc_code`, e.g. -32602) that names
    a known `status` becomes that status. A code this client does not know stays a plain `RegistryError`."""
    if jsonrpc_code is not None and status in _CODES:
        code = _CODES[status]
    cls = _CLASSES.get(code, RegistryError)
    error: RegistryError = cls(code, status, message, details, method, jsonrpc_code)
    return error


class TransportError(Unavailable):
    """The server could not be reached or answered with a gateway error: reported as UNAVAILABLE (14),
    as gRPC clients do, after the retries the call allowed."""

    def __init__(self, message: str, method: Optional[str] = None, sent: bool = False) -> None:
        #: True when the request may have reached the server (a write may have been applied).
        self.sent = sent
        super().__init__(Status.UNAVAILABLE, "UNAVAILABLE", message, method=method)


class ProtocolError(RouteRegistryError):
    """A JSON-RPC protocol error (-32700, -32600, -32601, -32603; -32602 only when it names no status) or an
    answer that is not JSON-RPC: a non-registry HTTP server, or a TLS handshake with a plain-HTTP server.

    `code` is None when there was no JSON-RPC answer; `http_status` is set when there was an HTTP one.
    """

    def __init__(self, code: Optional[int], message: str, data: Any = None, http_status: Optional[int] = None,
                 method: Optional[str] = None) -> None:
        self.code = code
        self.message = message
        self.data = data
        self.http_status = http_status
        self.method = method
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.method}: " if self.method else ""
        if self.code is None:  # no JSON-RPC answer; an HTTP one when http_status is set (none for a TLS failure)
            status = "" if self.http_status is None else f"HTTP {self.http_status}: "
            return f"{where}{status}{self.message}"
        return f"{where}JSON-RPC error {self.code}: {self.message}"


class LintFailure(RouteRegistryError):
    """Lint found findings of a failing severity. `str()` is a readable multi-line report for CI logs.

    `published` says whether the release was published anyway (findings only the real publish reported),
    `result` holds the publish or preview result.
    """

    def __init__(self, release: str, findings: Sequence[Mapping[str, Any]], fail_on: Sequence[str], published: bool,
                 result: Any = None) -> None:
        self.release = release
        self.findings = list(findings)
        self.fail_on = tuple(fail_on)
        self.published = published
        self.result = result
        super().__init__(str(self))

    @property
    def failing(self) -> List[Mapping[str, Any]]:
        """The findings whose severity is in `fail_on`."""
        return [f for f in self.findings if f.get("severity") in self.fail_on]

    def __str__(self) -> str:
        failing = self.failing
        what = "it WAS published" if self.published else "nothing was published"
        lines = [
            f"lint failed for {self.release}: {len(failing)} finding{'' if len(failing) == 1 else 's'} "
            f"of severity {'/'.join(self.fail_on)} ({what})"
        ]
        for finding in sorted(self.findings, key=lambda f: (f.get("severity") not in self.fail_on)):
            route = f" [route {finding['route']}]" if finding.get("route") else ""
            mark = "FAIL" if finding.get("severity") in self.fail_on else "    "
            lines.append(
                f"  {mark} {finding.get('severity', '?'):<7} {finding.get('code', '?')}{route}: {finding.get('message', '')}"
            )
        return "\n".join(lines)
