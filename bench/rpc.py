"""A minimal JSON-RPC 2.0 client over one keep-alive HTTP connection (standard library only).

The benchmark seeds its registries through the public API, exactly as a release pipeline would, so the
write-path numbers it reports are the ones users get.
"""

import http.client
import json
import time


class RPCError(Exception):
    """A JSON-RPC error answer: `code` is the gRPC status number or a protocol code."""

    def __init__(self, method, error):
        super().__init__(f"{method}: {error.get('code')} {error.get('message')}")
        self.code = error.get("code")
        self.error = error


class Client:
    """Calls `POST /rpc` on 127.0.0.1:port, reusing one connection; reconnects once if it was closed."""

    def __init__(self, port, token=None, timeout=120):
        self.port = port
        self.token = token
        self.timeout = timeout
        self._connection = None
        self._next_id = 0

    def _connect(self):
        self._connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)

    def _post(self, body):
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        for attempt in range(2):
            if self._connection is None:
                self._connect()
            try:
                self._connection.request("POST", "/rpc", body=body, headers=headers)
                response = self._connection.getresponse()
                return response.status, response.read()
            except (http.client.HTTPException, ConnectionError):
                self._connection.close()
                self._connection = None
                if attempt == 1:
                    raise
        raise AssertionError("unreachable")

    def call(self, method, **params):
        """Calls `method`; returns its result or raises RPCError."""
        result, _ = self.timed_call(method, **params)
        return result

    def timed_call(self, method, **params):
        """Calls `method`; returns (result, wall seconds of the HTTP round trip)."""
        self._next_id += 1
        body = json.dumps({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        start = time.perf_counter()
        status, raw = self._post(body.encode())
        elapsed = time.perf_counter() - start
        if status != 200:
            raise RPCError(method, {"code": status, "message": raw[:200].decode(errors="replace")})
        answer = json.loads(raw)
        if "error" in answer:
            raise RPCError(method, answer["error"])
        return answer["result"], elapsed

    def get(self, path, host, headers=None):
        """A plain GET with a Host header; returns (status, headers dict, body bytes)."""
        all_headers = {"Host": host}
        all_headers.update(headers or {})
        # Like `_post`: the server closes a keep-alive connection idle for long (between phases).
        for attempt in range(2):
            if self._connection is None:
                self._connect()
            try:
                self._connection.request("GET", path, headers=all_headers)
                response = self._connection.getresponse()
                return response.status, dict(response.getheaders()), response.read()
            except (http.client.HTTPException, ConnectionError):
                self._connection.close()
                self._connection = None
                if attempt == 1:
                    raise
        raise AssertionError("unreachable")

    def close(self):
        if self._connection is not None:
            self._connection.close()
            self._connection = None
