"""The real-world AASA files in ../shared/realworld (beside the repository; never copied into it): the invalid
ones (a trailing comma: iOS ignores the whole file) are refused saying where and what, the valid ones parse and
evaluate. Skipped, saying so, when the folder is absent."""

import json
import os
import subprocess
import sys

import pytest

from jsonschema import Draft202012Validator

from conftest import AASA_SCHEMA, ASSETLINKS_SCHEMA, CLIENT_DIR, REPO
from routeregistry.matcher import AASADocumentError, evaluate, parse_document

REALWORLD = REPO.parent / "shared" / "realworld"

needs_corpus = pytest.mark.skipif(not (REALWORLD / "aasa").is_dir(), reason="skipped: ../shared/realworld is absent")


def _files(folder):
    return sorted((REALWORLD / folder).glob("*.json")) if (REALWORLD / folder).is_dir() else []


@needs_corpus
@pytest.mark.parametrize("path", _files("aasa-invalid"), ids=lambda p: p.name)
def test_invalid_files_are_refused_saying_where_and_what(path):
    data = path.read_bytes()
    with pytest.raises(AASADocumentError) as refused:
        parse_document(data)
    message = str(refused.value)
    assert message.startswith("not valid JSON: line ") and "trailing comma before" in message, message
    # The byte offset in the message points at the comma itself.
    offset = int(message.split("(byte ")[1].split(")")[0])
    assert data[offset:offset + 1] == b","
    # The command line refuses it too, with the same message (exit 2: not a usable AASA file).
    env = dict(os.environ, PYTHONPATH=str(CLIENT_DIR))
    done = subprocess.run([sys.executable, "-m", "routeregistry", "match", str(path), "ABCDE12345.com.example.app",
                           "https://example.com/", "example.com"], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 2 and message in done.stderr, done.stderr


@needs_corpus
@pytest.mark.parametrize("path", _files("aasa"), ids=lambda p: p.name)
def test_valid_files_parse_like_the_json_module_and_evaluate(path):
    data = path.read_bytes()
    document = parse_document(data)
    assert document == json.loads(data)
    app_ids = [
        app_id
        for detail in (document.get("applinks", {}).get("details") or [])
        if isinstance(detail, dict)
        for app_id in (detail.get("appIDs") or [])
    ]
    for app_id in app_ids[:1]:
        try:
            outcome = evaluate(document, app_id, "https://example.com/zz-unrelated", "example.com")
        except AASADocumentError:
            continue
        assert outcome in ("match", "exclude", "no_match")


def test_strict_parsing_refuses_what_iOS_refuses():
    for text, where in [('{"a": 1,}', "line 1, column 8 (byte 7): trailing comma before '}'"),
                        ("[1,\n 2,\n]", "line 2, column 3 (byte 6): trailing comma before ']'"),
                        ("[NaN]", "NaN is not JSON"), ("[Infinity]", "Infinity is not JSON")]:
        with pytest.raises(AASADocumentError, match=".*" + where.replace("(", r"\(").replace(")", r"\)")
                           .replace("[", r"\[").replace("]", r"\]")):
            parse_document(text)
    assert parse_document("\ufeff{}") == {}


@needs_corpus
def test_the_aasa_schema_refuses_exactly_the_files_the_matcher_refuses():
    schema = Draft202012Validator(json.loads(AASA_SCHEMA.read_text(encoding="utf-8")))
    refused_by_schema, refused_by_matcher = set(), set()
    for path in _files("aasa"):
        document = parse_document(path.read_bytes())
        if not schema.is_valid(document):
            refused_by_schema.add(path.name)
        try:
            evaluate(document, "ABCDE12345.com.example.app", "https://example.com/", "example.com")
        except AASADocumentError:
            refused_by_matcher.add(path.name)
    # mozilla.org's appID holds an array: iOS documents a string; RouteRegistry refuses it everywhere.
    assert refused_by_schema == refused_by_matcher == {"mozilla-bedrock.json"}


@needs_corpus
@pytest.mark.parametrize("path", _files("assetlinks"), ids=lambda p: p.name)
def test_assetlinks_files_are_strict_json_and_match_the_schema(path):
    schema = Draft202012Validator(json.loads(ASSETLINKS_SCHEMA.read_text(encoding="utf-8")))
    document = parse_document(path.read_bytes())
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in schema.iter_errors(document)]
    assert errors == []
