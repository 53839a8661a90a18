"""Schema/registry.openrpc.json and the AASA / assetlinks schemas: valid JSON Schema 2020-12, every reference
resolves, and the documented shapes accept the requests of ARCHITECTURE.md "API contract" and refuse typos."""

import json
import re

import pytest
from jsonschema import Draft202012Validator

from conftest import AASA_SCHEMA, ASSETLINKS_SCHEMA, CONFORMANCE

ACCESS = {"public", "reader", "releaser", "admin"}
GRPC = {3: "INVALID_ARGUMENT", 4: "DEADLINE_EXCEEDED", 5: "NOT_FOUND", 6: "ALREADY_EXISTS", 7: "PERMISSION_DENIED",
        8: "RESOURCE_EXHAUSTED", 9: "FAILED_PRECONDITION", 10: "ABORTED", 13: "INTERNAL", 14: "UNAVAILABLE", 16: "UNAUTHENTICATED"}


def validator(openrpc, schema):
    # Refs point at #/components/schemas/..., so the schema is checked with the components beside it.
    return Draft202012Validator({**schema, "components": openrpc["components"]})


def param_errors(openrpc, method_name, params):
    method = next(m for m in openrpc["methods"] if m["name"] == method_name)
    errors = [f"unknown param {k}" for k in params if k not in {p["name"] for p in method["params"]}]
    for p in method["params"]:
        if p["name"] in params:
            errors += [f"{p['name']}: {e.message}" for e in validator(openrpc, p["schema"]).iter_errors(params[p["name"]])]
        elif p.get("required"):
            errors.append(f"missing {p['name']}")
    return errors


def walk_refs(node, found):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                found.append(value)
            else:
                walk_refs(value, found)
    elif isinstance(node, list):
        for value in node:
            walk_refs(value, found)
    return found


def test_document_header(openrpc):
    assert re.match(r"^1\.2\.\d+$", openrpc["openrpc"])
    assert openrpc["info"]["title"] == "RouteRegistry"
    assert openrpc["info"]["version"] == "1.0.0"
    assert openrpc["servers"][0]["url"] == "/rpc"


def test_methods_are_unique_and_fully_described(openrpc):
    names = [m["name"] for m in openrpc["methods"]]
    assert len(names) == len(set(names))
    assert "rpc.discover" in names
    for method in openrpc["methods"]:
        assert re.match(r"^([A-Z][A-Za-z]*\.[A-Z][A-Za-z]*|rpc\.discover)$", method["name"])
        assert method["paramStructure"] == "by-name"
        assert method["x-access"] in ACCESS
        assert "schema" in method["result"] and method["result"]["name"]
        codes = [e["code"] for e in method["errors"]]
        assert len(codes) == len(set(codes)), method["name"]
        for error in method["errors"]:
            assert GRPC[error["code"]] == error["message"]
        if method["x-access"] != "public":
            # A token's role or apps (7), a missing or expired token (16), the failed sign-in limit (8).
            assert {7, 8, 16} <= set(codes), method["name"]
        for param in method["params"]:
            assert re.match(r"^[a-z][A-Za-z]*$", param["name"])
            assert isinstance(param["required"], bool)


def test_every_schema_is_valid_2020_12_and_every_ref_resolves(openrpc):
    schemas = openrpc["components"]["schemas"]
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
    for method in openrpc["methods"]:
        Draft202012Validator.check_schema(method["result"]["schema"])
        for param in method["params"]:
            Draft202012Validator.check_schema(param["schema"])
    refs = walk_refs(openrpc, [])
    assert refs
    for ref in refs:
        assert ref.startswith("#/components/schemas/"), ref
        assert ref.rsplit("/", 1)[1] in schemas, ref


def test_standalone_schemas_are_valid_2020_12():
    for path in (AASA_SCHEMA, ASSETLINKS_SCHEMA):
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(schema)


BADOO = {"id": "badoo", "displayName": "Badoo", "ios": {"appIds": ["ABCDE12345.com.badoo.Badoo"]},
         "android": {"packageName": "com.badoo.mobile", "sha256CertFingerprints": [":".join(["AA"] * 32)]},
         "fallback": {"queryItem": "ul_fallback"}}
LOOKALIKES = {"id": "lookalikes", "pattern": {"path": "/l/a/*", "query": None, "fragment": None, "caseSensitive": True},
              "action": "open", "platforms": {"ios": {"since": "5.12.0", "until": None}}, "comment": "lookalikes"}


@pytest.mark.parametrize("method,params", [
    ("Apps.Create", {"app": BADOO}),
    ("Domains.Create", {"domain": {"host": "m.badoo.com", "apps": ["badoo"]}}),
    ("Routes.Create", {"app": "badoo", "route": LOOKALIKES}),
    ("Routes.Create", {"app": "badoo", "route": {"id": "help", "pattern": {"path": "/help/*"}, "action": "exclude"},
                       "before": "profile"}),
    ("Routes.Create", {"app": "badoo", "route": {"id": "q", "pattern": {"path": "/s", "query": {"q": "?*"}},
                                                 "platforms": {"android": {"since": "51200"}}}}),
    ("Routes.BatchCreate", {"app": "badoo", "routes": [LOOKALIKES, {"id": "help", "pattern": {"path": "/help/*"},
                                                                    "action": "exclude"}], "before": "profile"}),
    ("Routes.SwitchOff", {"app": "badoo", "route": "lookalikes", "platform": "ios", "versions": ["5.12.0"],
                          "reason": "crash in 5.12.0"}),
    ("Releases.Publish", {"app": "badoo", "platform": "ios", "version": "5.12.0"}),
    ("Associations.Get", {"host": "m.badoo.com", "revision": 3}),
    ("Associations.Diff", {"host": "m.badoo.com", "fromRevision": 2, "toRevision": 3}),
    ("CanOpen.Check", {"app": "badoo", "platform": "ios", "version": "5.11.0", "url": "https://m.badoo.com/l/a/42"}),
    ("Tokens.Create", {"token": {"displayName": "ci", "role": "releaser"}}),
    ("Audit.List", {"pageSize": 50, "pageToken": "abc"}),
])
def test_design_requests_are_valid(openrpc, method, params):
    assert param_errors(openrpc, method, params) == []


@pytest.mark.parametrize("method,params,expected", [
    ("Apps.Create", {"app": {**BADOO, "displayname": "typo"}}, "displayname"),
    ("Routes.Create", {"app": "badoo", "route": {**LOOKALIKES, "patern": {}}}, "patern"),
    ("Routes.Create", {"app": "badoo", "route": {**LOOKALIKES, "platforms": {"ios": {"since": "5.12.x"}}}}, "5.12.x"),
    ("Routes.Create", {"app": "badoo", "route": {**LOOKALIKES, "platforms": {"ios": {"since": "1.2.3.4.5"}}}}, "1.2.3.4.5"),
    ("Routes.Create", {"app": "badoo", "route": {**LOOKALIKES, "platforms": {"windows": {"since": "1"}}}}, "windows"),
    ("Routes.Create", {"app": "badoo", "route": {**LOOKALIKES, "action": "opn"}}, "opn"),
    ("Routes.Create", {"app": "badoo", "route": {**LOOKALIKES, "platforms": {"ios": None}}}, "None"),
    ("Routes.BatchCreate", {"app": "badoo", "routes": []}, "[]"),
    ("Routes.BatchCreate", {"app": "badoo", "routes": [LOOKALIKES, {**LOOKALIKES, "patern": {}}]}, "patern"),
    ("Routes.BatchCreate", {"app": "badoo", "route": LOOKALIKES}, "unknown param route"),
    ("Routes.SwitchOff", {"app": "badoo", "route": "r", "platform": "ios", "versions": []}, "[]"),
    ("Releases.Publish", {"app": "badoo", "platform": "iOS", "version": "5.12.0"}, "iOS"),
    ("Releases.List", {"app": "badoo", "state": "published"}, "published"),
    ("Tokens.Create", {"token": {"displayName": "ci", "role": "root"}}, "root"),
    ("Apps.List", {"pageSize": 1001}, "1001"),
    ("Apps.Get", {"ap": "badoo"}, "unknown param ap"),
    ("Routes.Get", {"app": "badoo"}, "missing route"),
])
def test_bad_requests_are_refused(openrpc, method, params, expected):
    errors = param_errors(openrpc, method, params)
    assert errors and any(expected in e for e in errors), errors


def test_outputs_accept_fields_a_newer_server_adds(openrpc):
    schemas = openrpc["components"]["schemas"]
    route = {**LOOKALIKES, "name": "apps/badoo/routes/lookalikes", "app": "badoo", "position": 2, "etag": "e1",
             "createTime": "2026-11-29T18:00:00Z", "updateTime": "2026-11-29T18:00:00Z", "newField": 1}
    assert list(validator(openrpc, schemas["RouteOutput"]).iter_errors(route)) == []
    decision = {"decision": "open_in_browser", "reason": "unsupported_version", "route": "lookalikes",
                "fallbackUrl": "https://m.badoo.com/l/a/42?ul_fallback=1", "supportedSince": "5.12.0", "extra": True}
    assert list(validator(openrpc, schemas["Decision"]).iter_errors(decision)) == []
    assert list(validator(openrpc, schemas["Decision"]).iter_errors({**decision, "reason": "because"}))


def test_aasa_schema_accepts_every_well_formed_conformance_document():
    with open(AASA_SCHEMA, encoding="utf-8") as f:
        schema = Draft202012Validator(json.load(f))
    with open(CONFORMANCE, encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    refused = {c["name"] for c in cases if not schema.is_valid(c["aasa"])}
    # The one case whose document is malformed on purpose: a query dictionary holding a boolean.
    assert refused == {"query/non-string-value-disables-dict"}
    assert not schema.is_valid({"applinks": {"details": [{"appIDs": ["not-an-app-id"], "components": []}]}})


def test_assetlinks_schema():
    with open(ASSETLINKS_SCHEMA, encoding="utf-8") as f:
        schema = Draft202012Validator(json.load(f))
    statement = {"relation": ["delegate_permission/common.handle_all_urls"],
                 "target": {"namespace": "android_app", "package_name": "com.badoo.mobile",
                            "sha256_cert_fingerprints": [":".join(["AB"] * 32)]}}
    assert schema.is_valid([statement])
    assert not schema.is_valid(statement)
    assert not schema.is_valid([{**statement, "target": {**statement["target"], "sha256_cert_fingerprints": ["AB"]}}])


def test_document_uses_only_fields_the_openrpc_spec_defines(openrpc):
    # OpenRPC 1.2 objects are closed except for x- extensions; a misspelt field would be silently ignored.
    def closed(obj, allowed, where):
        extra = {k for k in obj if k not in allowed and not k.startswith("x-")}
        assert not extra, f"{where}: {extra}"

    closed(openrpc, {"openrpc", "info", "externalDocs", "servers", "methods", "components"}, "document")
    closed(openrpc["info"], {"title", "description", "termsOfService", "version", "contact", "license"}, "info")
    for server in openrpc["servers"]:
        closed(server, {"url", "name", "description", "summary", "variables"}, "server")
    closed(openrpc["components"], {"schemas", "links", "errors", "examples", "examplePairings",
                                   "contentDescriptors", "tags"}, "components")
    descriptor = {"name", "summary", "description", "required", "schema", "deprecated"}
    for method in openrpc["methods"]:
        closed(method, {"name", "description", "summary", "servers", "tags", "paramStructure", "params", "result",
                        "errors", "links", "examples", "deprecated", "externalDocs"}, method["name"])
        assert {"name", "params", "result"} <= set(method)
        for param in method["params"]:
            closed(param, descriptor, f"{method['name']}.{param['name']}")
            assert param["name"] and "schema" in param
        closed(method["result"], descriptor, f"{method['name']} result")
        for error in method["errors"]:
            closed(error, {"code", "message", "data"}, f"{method['name']} error")
            assert isinstance(error["code"], int) and isinstance(error["message"], str)
    for name in openrpc["components"]["schemas"]:
        assert re.match(r"^[A-Za-z0-9._-]+$", name)


def test_examples_are_valid_requests_and_results(openrpc):
    with_examples = [m for m in openrpc["methods"] if m.get("examples")]
    assert len(with_examples) >= 5
    for method in with_examples:
        for pairing in method["examples"]:
            params = {p["name"]: p["value"] for p in pairing["params"]}
            assert param_errors(openrpc, method["name"], params) == [], (method["name"], pairing["name"])
            result = pairing["result"]["value"]
            errors = [e.message for e in validator(openrpc, method["result"]["schema"]).iter_errors(result)]
            assert errors == [], (method["name"], pairing["name"], errors)
