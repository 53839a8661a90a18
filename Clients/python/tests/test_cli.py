"""`python -m routeregistry`, run as a real subprocess against the scripted fake registry."""

import json
import os
import subprocess
import sys

from conftest import CLIENT_DIR
from test_client_http import FakeRegistry, scripted


def run(*args, server=None):
    env = dict(os.environ, PYTHONPATH=str(CLIENT_DIR))
    env.pop("ROUTEREG_TOKEN", None)
    if server:
        env["ROUTEREG_SERVER"] = server
    return subprocess.run([sys.executable, "-m", "routeregistry", *args], capture_output=True, text=True, env=env,
                          timeout=60)


def test_publish_prints_revisions_and_exits_zero():
    with FakeRegistry(scripted([])) as fake:
        done = run("--token", "t0k", "publish", "badoo", "ios", "5.12.0", server=fake.url)
    assert done.returncode == 0, done.stderr
    assert "published badoo ios 5.12.0: live" in done.stdout
    assert fake.methods == ["Associations.Preview", "Releases.Publish"]
    assert fake.requests[0]["headers"]["Authorization"] == "Bearer t0k"


def test_publish_fails_the_job_on_lint():
    lint = [{"severity": "warning", "code": "size_near_limit", "message": "120 KB of 128 KB"}]
    with FakeRegistry(scripted(lint)) as fake:
        done = run("publish", "badoo", "ios", "5.12.0", "--fail-on", "error,warning", server=fake.url)
    assert done.returncode == 1
    assert done.stderr.startswith("lint failed for badoo ios 5.12.0: 1 finding of severity error/warning")
    assert fake.methods == ["Associations.Preview"]


def test_call_prints_json_and_reports_errors():
    def script(request, n):
        if request["method"] == "Apps.Get":
            return 200, {"jsonrpc": "2.0", "id": request["id"], "result": {"id": request["params"]["app"]}}
        return 200, {"jsonrpc": "2.0", "id": request["id"],
                     "error": {"code": 5, "message": "apps/x not found", "data": {"status": "NOT_FOUND"}}}

    with FakeRegistry(script) as fake:
        done = run("call", "Apps.Get", '{"app": "badoo"}', server=fake.url)
        assert done.returncode == 0 and json.loads(done.stdout) == {"id": "badoo"}
        done = run("call", "Apps.Delete", '{"app": "x"}', server=fake.url)
        assert done.returncode == 1
        assert done.stderr.strip() == "error: Apps.Delete: NOT_FOUND (5): apps/x not found"
        assert run("call", "Apps.Get", "[1]", server=fake.url).returncode == 2


def test_match(tmp_path):
    aasa = tmp_path / "aasa.json"
    aasa.write_text(json.dumps({"applinks": {"details": [{"appIDs": ["ABCDE12345.com.badoo.Badoo"], "components": [
        {"?": {"ul_fallback": "?*"}, "exclude": True}, {"/": "/u/*"}]}]}}))
    done = run("match", str(aasa), "ABCDE12345.com.badoo.Badoo", "https://m.badoo.com/u/1", "m.badoo.com")
    assert done.returncode == 0 and done.stdout.splitlines() == ["match", 'rule: {"/": "/u/*"} (detail 0, rule 1)']
    done = run("match", str(aasa), "ABCDE12345.com.badoo.Badoo", "https://m.badoo.com/x", "m.badoo.com")
    assert done.returncode == 1 and done.stdout.startswith("no_match\nreason: no rule matched (2 rules")
    aasa.write_text("[]")
    assert run("match", str(aasa), "A", "https://m.badoo.com/x", "m.badoo.com").returncode == 2
