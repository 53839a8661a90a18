"""Shared paths and fixtures. The real-server scenario is collected only when ROUTEREG_BIN names a binary."""

import json
import os
import sys
from pathlib import Path

import pytest

CLIENT_DIR = Path(__file__).resolve().parent.parent
REPO = CLIENT_DIR.parent.parent
# The repository's own copy of the conformance vectors (byte-identical to ../shared/conformance, checked by a test).
CONFORMANCE = REPO / "Tests" / "Conformance" / "aasa-matching.json"
UPSTREAM_CONFORMANCE = REPO.parent / "shared" / "conformance" / "aasa-matching.json"
PROJECT_VECTORS = REPO / "Tests" / "RouteCoreTests" / "Fixtures" / "route-vectors.json"
OPENRPC = REPO / "Schema" / "registry.openrpc.json"
AASA_SCHEMA = REPO / "Schema" / "aasa.schema.json"
ASSETLINKS_SCHEMA = REPO / "Schema" / "assetlinks.schema.json"

sys.path.insert(0, str(CLIENT_DIR))

# Not a skip: without a server binary the module is simply not part of the run (`make test` sets it).
collect_ignore = [] if os.environ.get("ROUTEREG_BIN") else ["test_scenario_server.py", "test_links_server.py"]


@pytest.fixture(scope="session")
def openrpc():
    with open(OPENRPC, encoding="utf-8") as f:
        return json.load(f)
