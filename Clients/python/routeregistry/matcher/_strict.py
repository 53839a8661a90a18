"""Reading AASA bytes as strict JSON, the way iOS does: a file that is not strict JSON is ignored whole.

Python's ``json`` already refuses a trailing comma, but says "Expecting value" and accepts ``NaN`` and
``Infinity``; this says what and where (line, column, byte offset) and refuses the non-standard constants.
"""

from __future__ import annotations

import json
from typing import Any, Optional, Union

from ._document import AASADocumentError


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_document(data: Union[str, bytes]) -> Any:
    """The JSON value of an AASA file; raises ``AASADocumentError`` ("not valid JSON: line L, column C
    (byte B): what") unless ``data`` is exactly one RFC 8259 value."""
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise AASADocumentError(f"not valid JSON: {_where(raw, error.start)}: invalid UTF-8 byte 0x{raw[error.start]:02X}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
        raw = raw[3:]
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        offset = len(text[: error.pos].encode("utf-8"))
        comma = _trailing_comma(text, error.pos)
        if comma is not None:
            close = text[error.pos]
            kind = "member" if close == "}" else "element"
            offset = len(text[:comma].encode("utf-8"))
            message = f"trailing comma before '{close}': JSON allows no comma after the last {kind}"
        else:
            message = error.msg
        raise AASADocumentError(f"not valid JSON: {_where(raw, offset)}: {message}") from None
    except ValueError as error:
        raise AASADocumentError(f"not valid JSON: {error}") from None


def _trailing_comma(text: str, position: int) -> Optional[int]:
    """The index of the comma when the error is a closing bracket right after one, else None."""
    if position >= len(text) or text[position] not in "}]":
        return None
    before = position - 1
    while before >= 0 and text[before] in " \t\r\n":
        before -= 1
    return before if before >= 0 and text[before] == "," else None


def _where(raw: bytes, offset: int) -> str:
    line = raw.count(b"\n", 0, offset) + 1
    start = raw.rfind(b"\n", 0, offset) + 1
    column = len(raw[start:offset].decode("utf-8", errors="replace")) + 1
    return f"line {line}, column {column} (byte {offset})"
