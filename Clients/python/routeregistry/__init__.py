"""RouteRegistry client for release pipelines and scripts (standard library only, Python >= 3.9, typed).

    from routeregistry import Client
    with Client.from_env() as client:
        client.publish_release("badoo", "ios", "5.12.0")

`AsyncClient` offers the same methods as coroutines; `routeregistry.matcher.evaluate` re-implements Apple's
AASA matching locally.
"""

from ._methods import METHOD_INFO, MethodInfo
from .async_client import AsyncClient
from .client import METHODS, Client, python_name
from .errors import (
    Aborted,
    AlreadyExists,
    Cancelled,
    DataLoss,
    DeadlineExceeded,
    FailedPrecondition,
    Internal,
    InvalidArgument,
    LintFailure,
    NotFound,
    OutOfRange,
    PermissionDenied,
    ProtocolError,
    RegistryError,
    ResourceExhausted,
    RouteRegistryError,
    Status,
    TransportError,
    Unauthenticated,
    Unavailable,
    Unimplemented,
    Unknown,
    error_for,
    status_name,
)

__version__ = "1.0.0"

__all__ = [
    "Client",
    "AsyncClient",
    "METHODS",
    "METHOD_INFO",
    "MethodInfo",
    "python_name",
    "RouteRegistryError",
    "RegistryError",
    "Cancelled", "Unknown", "InvalidArgument", "DeadlineExceeded", "NotFound", "AlreadyExists",
    "PermissionDenied", "ResourceExhausted", "FailedPrecondition", "Aborted", "OutOfRange", "Unimplemented",
    "Internal", "Unavailable", "DataLoss", "Unauthenticated",
    "error_for",
    "TransportError",
    "ProtocolError",
    "LintFailure",
    "Status",
    "status_name",
    "__version__",
]
