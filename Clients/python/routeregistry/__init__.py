"""RouteRegistry client for release pipelines and scripts (standard library only, Python >= 3.9).

    from routeregistry import Client
    client = Client("http://127.0.0.1:8080", token="...")
    client.publish_release("badoo", "ios", "5.12.0")

`routeregistry.matcher.evaluate` re-implements Apple's AASA matching locally.
"""

from .client import METHODS, Client, python_name
from .errors import (
    LintFailure,
    ProtocolError,
    RegistryError,
    RouteRegistryError,
    Status,
    TransportError,
    status_name,
)

__version__ = "1.0.0"

__all__ = [
    "Client",
    "METHODS",
    "python_name",
    "RouteRegistryError",
    "RegistryError",
    "TransportError",
    "ProtocolError",
    "LintFailure",
    "Status",
    "status_name",
    "__version__",
]
