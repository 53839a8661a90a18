#!/usr/bin/env python3
"""Schema-driven fuzzing of the JSON-RPC API against a real server (`make fuzz-api`, and a short fixed-seed run in
`make test`).

Requests are generated from the OpenRPC document itself (hypothesis-jsonschema turns each method's params into a
strategy), then some are mutated (a param dropped, an unknown one added, a value of another type, a value far
past its limit), sent alone, as notifications or in batches, with and without a token. Every answer must hold:
no 5xx, no INTERNAL, no internals in the text (Swift type names, decoder sentences, SQL), answers of a bounded
size. At the end the registry's own integrity is checked: audit ids without gaps, every accepted write audited
and no refused one, revisions without gaps, and every served well-known file equal to its latest revision.

    python3 Fuzz/api/fuzz_api.py --seconds 600            # explore (make fuzz-api)
    python3 Fuzz/api/fuzz_api.py --examples 400 --seed 1  # repeatable (make test)
"""

import argparse
import collections
import http.client
import json
import os
import queue
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

REPO = Path(__file__).resolve().parents[2]
OPENRPC = REPO / "Schema" / "registry.openrpc.json"

# Text that must never reach a client: Swift types and decoder sentences, SQL, libpq, file paths.
LEAKS = re.compile(
    r"Swift\.|DecodingError|EncodingError|Cannot initialize|Could not convert|not valid JSON|Expected to decode|"
    r"CodingKeys|Optional\(|\bSELECT\b|\bINSERT\b|\bUPDATE \w+ SET\b|\bDELETE FROM\b|SQLSTATE|\bPQ[a-z]|libpq|"
    r"StoreError|RegistryError|/work/|\.swift\b|Fatal error")
WATCH_TIMEOUT_MS = 50
MAX_RESPONSE = (1 << 20) + 300_000  # the batch budget, plus the one answer that may cross it


class Violation(AssertionError):
    pass


class Server:
    """`routereg serve` on an ephemeral port with a private embedded cluster; stopped (and its data removed)
    whatever happens."""

    def __init__(self, binary):
        self.admin_token = secrets.token_urlsafe(24)
        self.data_dir = tempfile.mkdtemp(prefix="routereg-fuzz-api-")
        os.chmod(self.data_dir, 0o711)
        env = dict(os.environ, ROUTEREG_ADMIN_TOKEN=self.admin_token)
        self.process = subprocess.Popen(
            [binary, "serve", "--listen", "127.0.0.1:0", "--data-dir", self.data_dir, "--quiet", "--no-delivery-watch"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, text=True, env=env)
        self.log = []
        lines = queue.Queue()

        def drain():
            for line in self.process.stdout:
                self.log.append(line)
                lines.put(line)

        threading.Thread(target=drain, daemon=True).start()
        deadline = time.monotonic() + 180
        self.port = None
        while self.port is None:
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.stop()
                raise SystemExit("routereg serve did not start:\n" + "".join(self.log[-30:]))
            try:
                match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", lines.get(timeout=1))
            except queue.Empty:
                continue
            if match:
                self.port = int(match.group(1))

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.data_dir, ignore_errors=True)


class Client:
    def __init__(self, port):
        self.port = port
        self.connection = None

    def post(self, body: bytes, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.connection.request("POST", "/rpc", body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.connection.close()
                    self.connection = None
                return response.status, response.getheader("X-Request-Id"), data
            except (ConnectionError, http.client.HTTPException):
                self.connection.close()
                self.connection = None
                if attempt:
                    raise

    def get(self, path, host):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request("GET", path, headers={"Host": host})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()


class Fuzzer:
    def __init__(self, client, admin_token, document):
        self.client = client
        self.admin = admin_token
        self.methods = {m["name"]: m for m in document["methods"]}
        self.components = document["components"]
        self.strategies = {}
        self.counts = collections.defaultdict(collections.Counter)
        self.accepted_writes = {}  # request id -> the call, for the report
        self.refused_writes = {}
        self.requests = 0
        self.refused_valid = []
        self.idempotency_keys = set()  # (method, requestId) pairs sent  # unmutated, schema-generated params the server refused as invalid

    # -- generation ---------------------------------------------------------------------------------------

    def params_schema(self, method):
        params = self.methods[method]["params"]
        return ecma_anchors({
            "type": "object",
            "properties": {p["name"]: p["schema"] for p in params},
            "required": [p["name"] for p in params if p.get("required")],
            "additionalProperties": False,
            "components": self.components,
        })

    def strategy(self, method):
        if method not in self.strategies:
            self.strategies[method] = from_schema(self.params_schema(method))
        return self.strategies[method]

    @staticmethod
    def is_write(method):
        """Methods that change the registry (and so must leave exactly one audit trail when accepted)."""
        return re.search(r"\.(Create|BatchCreate|Update|Delete|Reorder|SwitchOff|SwitchOn|Publish|Retire|Revoke)$",
                         method) is not None

    def known(self, data, params):
        """Points some params at resources that exist, so the fuzz reaches more than NOT_FOUND."""
        choices = {"app": ["badoo", "fuzz"], "host": ["m.badoo.com", "fuzz.example.com"],
                   "platform": ["ios", "android"], "version": ["5.11.0", "5.12", "6"]}
        for key, values in choices.items():
            if key in params and isinstance(params[key], str) and data.draw(st.booleans(), label="known " + key):
                params[key] = data.draw(st.sampled_from(values))
        if "route" in params and isinstance(params["route"], str) and data.draw(st.booleans()):
            params["route"] = data.draw(st.sampled_from(["profile", "lookalikes", "help"]))
        return params

    def mutate(self, data, params, method):
        kind = data.draw(st.sampled_from(["drop", "extra", "retype", "huge", "deep", "nul", "surrogate", "bound"]),
                         label="mutation")
        self.last_mutation = kind
        keys = sorted(params)
        if kind in ("nul", "surrogate"):
            # Text PostgreSQL cannot store, in one string (a value or a member name) anywhere in the params.
            return with_unstorable(data, params, "\u0000" if kind == "nul" else "\ud800")
        if kind == "bound":
            # Past the matching bounds: a URL one character over the document's maxLength, or a pattern whose
            # substitution tokens times values exceed 256 on the seeded domain (`$(v)` has 51 values there).
            if "url" in params:
                params["url"] = "https://m.badoo.com/" + "a" * 8173
            elif isinstance(params.get("route"), dict):
                params["route"] = dict(params["route"], pattern={"path": "/v", "query": "$(v)" * 6})
            else:
                self.last_mutation = "huge"
                kind = "huge"
        if kind == "drop" and keys:
            params.pop(data.draw(st.sampled_from(keys)))
        elif kind == "extra":
            params[data.draw(st.text(min_size=1, max_size=8))] = data.draw(json_values())
        elif kind == "retype" and keys:
            params[data.draw(st.sampled_from(keys))] = data.draw(json_values())
        elif kind == "huge" and keys:
            params[data.draw(st.sampled_from(keys))] = "x" * data.draw(st.sampled_from([300, 5000, 120_000]))
        elif kind == "deep" and keys:
            value = "v"
            for _ in range(data.draw(st.integers(1, 80))):
                value = [value] if data.draw(st.booleans()) else {"k": value}
            params[data.draw(st.sampled_from(keys))] = value
        return params

    def call(self, data):
        method = data.draw(st.sampled_from(sorted(self.methods)), label="method")
        params = self.known(data, data.draw(self.strategy(method), label="params"))
        mutated = data.draw(st.integers(0, 3), label="mutate?") == 0
        self.last_mutation = None
        if mutated:
            params = self.mutate(data, params, method)
        if method == "Associations.Watch" and isinstance(params.get("timeoutMs", 0), int):
            # A long poll waits up to a minute (30 s by default): keep it short, or the fuzz mostly waits.
            params["timeoutMs"] = min(params.get("timeoutMs", WATCH_TIMEOUT_MS), WATCH_TIMEOUT_MS)
        return method, params, mutated

    # -- checking -------------------------------------------------------------------------------------------

    def check_answer(self, method, answer, label):
        if not isinstance(answer, dict) or answer.get("jsonrpc") != "2.0":
            raise Violation(f"{label}: not a JSON-RPC response: {str(answer)[:300]}")
        error = answer.get("error")
        if error is None:
            self.counts[method]["OK"] += 1
            return True
        code = error.get("code")
        status = (error.get("data") or {}).get("status") or str(code)
        self.counts[method][status] += 1
        if code in (-32603, 13) or status == "INTERNAL":
            raise Violation(f"{label}: INTERNAL: {json.dumps(error)[:500]}")
        text = json.dumps(error)
        if LEAKS.search(text):
            raise Violation(f"{label}: internals in the error: {text[:500]}")
        if len(text) > 4000:
            raise Violation(f"{label}: a {len(text)}-byte error")
        return False

    def send(self, body, token, label):
        self.requests += 1
        status, request_id, data = self.client.post(body, token)
        if status >= 500:
            raise Violation(f"{label}: HTTP {status}: {data[:300]!r}")
        if len(data) > MAX_RESPONSE:
            raise Violation(f"{label}: a {len(data)}-byte answer to a {len(body)}-byte request")
        if status == 204 or not data:
            return request_id, None
        if status != 200:
            return request_id, None
        try:
            return request_id, json.loads(data)
        except ValueError:
            raise Violation(f"{label}: not JSON: {data[:300]!r}")

    def one(self, data):
        shape = data.draw(st.sampled_from(["single"] * 6 + ["batch", "notification", "anonymous"]), label="shape")
        if shape == "batch":
            calls = [self.call(data) for _ in range(data.draw(st.integers(2, 6), label="batch size"))]
            body = json.dumps([{"jsonrpc": "2.0", "id": i, "method": m, "params": p}
                               for i, (m, p, _) in enumerate(calls)]).encode()
            _, answers = self.send(body, self.admin, "batch")
            if isinstance(answers, dict):  # the batch as a whole was refused (too deep, say)
                self.check_answer("-", answers, "batch")
                return
            for answer in answers or []:
                method = calls[answer["id"]][0] if isinstance(answer.get("id"), int) else "-"
                self.check_answer(method, answer, f"batch member {method}")
            return
        method, params, mutated = self.call(data)
        request = {"jsonrpc": "2.0", "method": method, "params": params}
        if shape != "notification":
            request["id"] = data.draw(st.one_of(st.integers(-2**53, 2**53), st.text(max_size=20)), label="id")
        token = None if shape == "anonymous" else self.admin
        request_id, answer = self.send(json.dumps(request).encode(), token, f"{method} {json.dumps(params)[:300]}")
        if shape == "notification":
            self.counts[method]["notification"] += 1
            return
        accepted = self.check_answer(method, answer, f"{method} {json.dumps(params)[:300]}")
        if mutated and token and self.last_mutation in ("nul", "surrogate"):
            # Whichever method and field: refused as invalid, naming the field, before anything is stored.
            error = answer.get("error") or {}
            if (error.get("data") or {}).get("status") != "INVALID_ARGUMENT":
                raise Violation(f"{method}: a {self.last_mutation} was not INVALID_ARGUMENT: "
                                f"{json.dumps(params)[:300]} -> {json.dumps(answer)[:300]}")
            self.counts["-unstorable refused"][self.last_mutation] += 1
        if not mutated and not accepted and answer["error"].get("code") == -32602:
            self.refused_valid.append(f"{method} {json.dumps(params)[:200]}: {answer['error'].get('message')}")
        # A write repeating an idempotency key is a replay: it answers the first outcome and writes nothing.
        request_key = params.get("requestId") if isinstance(params, dict) else None
        key = (method, request_key) if isinstance(request_key, str) else None
        replay = key is not None and key in self.idempotency_keys
        if key is not None:
            self.idempotency_keys.add(key)
        if self.is_write(method) and request_id and not replay:
            (self.accepted_writes if accepted else self.refused_writes)[request_id] = f"{method} {json.dumps(params)[:200]}"

    # -- integrity ------------------------------------------------------------------------------------------

    def rpc(self, method, params):
        _, answer = self.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode(),
                              self.admin, method)
        if "error" in answer:
            raise Violation(f"integrity read {method} {params}: {answer['error']}")
        return answer["result"]

    def pages(self, method, params, key):
        token = ""
        while True:
            page = self.rpc(method, dict(params, pageSize=1000, pageToken=token))
            yield from page[key]
            token = page.get("nextPageToken") or ""
            if not token:
                return

    def check_integrity(self):
        entries = list(self.pages("Audit.List", {}, "entries"))
        ids = sorted(int(e["id"]) for e in entries)
        if ids and ids != list(range(ids[0], ids[-1] + 1)):
            missing = sorted(set(range(ids[0], ids[-1] + 1)) - set(ids))[:10]
            raise Violation(f"audit ids have gaps: missing {missing}")
        audited = {e.get("requestId") for e in entries}
        unaudited = [call for request, call in self.accepted_writes.items() if request not in audited]
        if unaudited:
            raise Violation(f"{len(unaudited)} accepted writes left no audit entry, e.g. {unaudited[:3]}")
        ghost = [call for request, call in self.refused_writes.items() if request in audited]
        if ghost:
            raise Violation(f"{len(ghost)} refused writes were audited, e.g. {ghost[:3]}")
        documents = 0
        for domain in self.pages("Domains.List", {}, "domains"):
            host = domain["host"]
            for kind, path in (("aasa", "/.well-known/apple-app-site-association"),
                               ("assetlinks", "/.well-known/assetlinks.json")):
                revisions = [r["revision"] for r in self.pages("Associations.ListRevisions",
                                                               {"host": host, "kind": kind}, "revisions")]
                if sorted(revisions) != list(range(1, len(revisions) + 1)):
                    raise Violation(f"{host} {kind}: revisions {sorted(revisions)[:20]} have gaps")
                if not revisions:
                    continue
                latest = self.rpc("Associations.Get", {"host": host, "kind": kind})
                status, body = self.client.get(path, host)
                if status != 200 or json.loads(body) != latest["document"]:
                    raise Violation(f"{host} {kind}: the served file is not revision {latest['revision']}")
                documents += 1
        return len(ids), documents


def ecma_anchors(schema):
    """The schema with each pattern's final `$` made `\\Z` for generation: in Python's regular expressions `$`
    also matches before a final newline, in ECMA 262's (JSON Schema's) it does not, so `a\\n` would be generated
    as an Identifier and rightly refused."""
    if isinstance(schema, dict):
        return {k: (re.sub(r"(?<!\\)\$$", r"\\Z", v) if k == "pattern" and isinstance(v, str) else ecma_anchors(v))
                for k, v in schema.items()}
    if isinstance(schema, list):
        return [ecma_anchors(v) for v in schema]
    return schema


def with_unstorable(data, params, char):
    """`params` with `char` put into one of its strings, a member name or a value, at any depth (a new member
    when it holds no string)."""
    places = []

    def walk(value):
        if isinstance(value, dict):
            for key in list(value):
                places.append((value, key, True))
                if isinstance(value[key], str):
                    places.append((value, key, False))
                walk(value[key])
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, str):
                    places.append((value, index, False))
                walk(item)

    walk(params)
    if not places:
        params["x" + char] = "v"
        return params
    container, key, is_name = data.draw(st.sampled_from(places), label="unstorable place")
    text = key if is_name else container[key]
    at = data.draw(st.integers(0, len(text)), label="unstorable offset")
    changed = text[:at] + char + text[at:]
    if is_name:
        container[changed] = container.pop(key)
    else:
        container[key] = changed
    return params


def json_values():
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=30))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.text(max_size=8), inner, max_size=4), max_leaves=10)


def seed_registry(fuzzer):
    for method, params in [
        ("Apps.Create", {"app": {"id": "badoo", "ios": {"appIds": ["ABCDE12345.com.badoo.Badoo"]},
                                 "android": {"packageName": "com.badoo.mobile",
                                             "sha256CertFingerprints": [":".join(["AB"] * 32)]}}}),
        ("Apps.Create", {"app": {"id": "fuzz", "ios": {"appIds": ["ABCDE12345.com.fuzz.Fuzz"]}}}),
        ("Domains.Create", {"domain": {"host": "m.badoo.com", "apps": ["badoo"]}}),
        ("Domains.Create", {"domain": {"host": "fuzz.example.com", "apps": ["fuzz", "badoo"]}}),
        ("Routes.Create", {"app": "badoo", "route": {"id": "profile", "pattern": {"path": "/u/*"},
                                                     "platforms": {"ios": {"since": "5.0"}}}}),
        ("Routes.Create", {"app": "badoo", "route": {"id": "lookalikes", "pattern": {"path": "/l/a/*"},
                                                     "platforms": {"ios": {"since": "5.12.0"}}}}),
        ("Routes.Create", {"app": "badoo", "route": {"id": "help", "pattern": {"path": "/help/*"},
                                                     "action": "exclude"}}),
        ("Releases.Publish", {"app": "badoo", "platform": "ios", "version": "5.11.0"}),
        # A variable at the bound's edge (issue 41): 5 tokens of it fit, 6 do not (the "bound" mutation).
        ("Domains.Create", {"domain": {"host": "vars.example.com", "apps": ["fuzz"],
                                       "substitutionVariables": {"v": [f"value{i}" for i in range(51)]}}}),
    ]:
        fuzzer.rpc(method, params)


def check_bounds(fuzzer):
    """The bounds of issue 41, asked directly once: over-long URLs, a pattern over the substitution bound and
    a NUL in a stored field are INVALID_ARGUMENT naming the field."""
    def refusal(method, params):
        _, answer = fuzzer.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode(),
                                fuzzer.admin, method)
        fuzzer.check_answer(method, answer, method)
        error = answer.get("error") or {}
        details = (error.get("data") or {}).get("details") or [{}]
        return (error.get("data") or {}).get("status"), details[0].get("field")

    over = "https://m.badoo.com/" + "a" * 8173
    expected = [
        ("CanOpen.Check", {"app": "badoo", "platform": "ios", "version": "5.11.0", "url": over}, "url"),
        ("Links.Resolve", {"url": over, "platform": "ios", "version": "5.11.0"}, "url"),
        ("Routes.Create", {"app": "fuzz", "route": {"id": "greedy", "pattern": {"path": "/g", "query": "$(v)" * 6}}},
         "route.pattern.query"),
        ("Apps.Update", {"app": {"id": "fuzz", "displayName": "a\u0000b"}}, "app.displayName"),
    ]
    for method, params, field in expected:
        status, named = refusal(method, params)
        if status != "INVALID_ARGUMENT" or named != field:
            raise Violation(f"bounds: {method} answered {status} naming {named!r}, not INVALID_ARGUMENT on {field}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, help="run this long (random seeds)")
    parser.add_argument("--examples", type=int, default=400, help="with --seed: this many generated requests")
    parser.add_argument("--seed", type=int, help="a fixed seed: the same requests every run")
    parser.add_argument("--binary", default=os.environ.get("ROUTEREG_BIN", str(REPO / ".build/debug/routereg")))
    args = parser.parse_args()

    document = json.loads(OPENRPC.read_text(encoding="utf-8"))
    started = time.monotonic()
    server = Server(args.binary)
    print(f"fuzz-api: server up after {time.monotonic() - started:.1f} s", file=sys.stderr)
    try:
        fuzzer = Fuzzer(Client(server.port), server.admin_token, document)
        seed_registry(fuzzer)
        print(f"fuzz-api: seeded after {time.monotonic() - started:.1f} s", file=sys.stderr)

        def run_chunk(chunk_seed, examples):
            @seed(chunk_seed)
            @settings(max_examples=examples, database=None, deadline=None, derandomize=False,
                      phases=[Phase.generate], suppress_health_check=list(HealthCheck))
            @given(st.data())
            def chunk(data):
                fuzzer.one(data)

            chunk()

        if args.seconds:
            chunk_seed = args.seed if args.seed is not None else secrets.randbelow(2**32)
            while time.monotonic() - started < args.seconds:
                run_chunk(chunk_seed, 200)
                chunk_seed += 1
        else:
            run_chunk(args.seed if args.seed is not None else 0, args.examples)
        check_bounds(fuzzer)
        audit, documents = fuzzer.check_integrity()
    except Violation as violation:
        print(f"fuzz-api: FAILED: {violation}", file=sys.stderr)
        sys.exit(1)
    finally:
        server.stop()

    elapsed = time.monotonic() - started
    print(f"fuzz-api: {fuzzer.requests} requests in {elapsed:.0f} s; integrity held over {audit} audit entries, "
          f"{len(fuzzer.accepted_writes)} accepted and {len(fuzzer.refused_writes)} refused writes, "
          f"{documents} served documents")
    if fuzzer.refused_valid:
        print(f"  {len(fuzzer.refused_valid)} generated (unmutated) calls refused as invalid params, e.g.:")
        for example in fuzzer.refused_valid[:5]:
            print("    " + example)
    width = max(len(m) for m in fuzzer.counts)
    for method in sorted(fuzzer.counts):
        counts = fuzzer.counts[method]
        detail = ", ".join(f"{k} {v}" for k, v in counts.most_common())
        print(f"  {method:<{width}}  {sum(counts.values()):>6}  {detail}")


if __name__ == "__main__":
    main()
