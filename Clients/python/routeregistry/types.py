"""The API's shapes as TypedDicts, generated from Schema/registry.openrpc.json into `_schema.py`, plus the
names earlier versions of this package used for some of them.

They are plain dicts at runtime: the client sends and returns JSON objects unchanged, so fields a newer
server adds are kept. Keys are the wire's lowerCamelCase.
"""

from __future__ import annotations

from typing import Literal

from ._schema import *  # noqa: F401,F403
from ._schema import __all__ as _generated
from ._schema import (
    AppAndroid, AppFallback, AppIos, AssociationsGetResult, AssociationsWatchResult, CanOpenGetTableResult,
    MatrixGetResult, ReleaseEventResult, TokensCreateResult, TokensCreateToken,
)

Severity = Literal["warning", "error"]
IOSConfig = AppIos
AndroidConfig = AppAndroid
FallbackPolicy = AppFallback
ReleaseChange = ReleaseEventResult
CanOpenTableResult = CanOpenGetTableResult
Association = AssociationsGetResult
WatchResult = AssociationsWatchResult
NewToken = TokensCreateToken
CreatedToken = TokensCreateResult
Matrix = MatrixGetResult

__all__ = [*_generated, "Severity", "IOSConfig", "AndroidConfig", "FallbackPolicy", "ReleaseChange",
           "CanOpenTableResult", "Association", "WatchResult", "NewToken", "CreatedToken", "Matrix"]
