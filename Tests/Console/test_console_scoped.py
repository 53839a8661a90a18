"""A token scoped to one team's app: the console shows that app only (the API filters every list it calls), and
a write forged from the page to another team's app is refused, naming it."""

import json

import pytest
from selenium.webdriver.common.by import By

from console import find, go, matrix_cell, severe_console_errors, sign_in, wait


@pytest.fixture(scope="module")
def teams(api):
    """Two teams' apps, each with a domain and a route published, and a domain they share."""
    for app in ("teama", "teamb"):
        api("Apps.Create", app={"id": app, "ios": {"appIds": [f"ABCDE12345.com.example.{app}"]}})
        api("Domains.Create", domain={"host": f"{app}.example.com", "apps": [app]})
        api("Routes.Create", app=app, route={"id": "home", "pattern": {"path": f"/{app}/*"}, "action": "open",
                                             "platforms": {"ios": {"since": "1.0"}}})
        api("Releases.Publish", app=app, platform="ios", version="1.0")
    api("Domains.Create", domain={"host": "teams.example.com", "apps": ["teama", "teamb"]})
    created = api("Tokens.Create", token={"displayName": "team a", "role": "releaser", "apps": ["teama"]})
    return created["secret"], created["token"]["id"]


def test_a_scoped_token_sees_only_its_app_and_cannot_write_another(server, api, browser, teams):
    url, d = server["url"], browser
    secret, token_id = teams
    sign_in(d, url, secret)
    assert find(d, "#who-role").text == "releaser"
    assert find(d, "#who-scope").text == "apps: teama"

    go(d, url, "apps")
    find(d, "main table")
    listed = [a.text for a in d.find_elements(By.CSS_SELECTOR, "main table td:first-child a")]
    assert listed == ["teama"], listed

    go(d, url, "matrix/teama/ios")
    assert matrix_cell(d, "home", "1.0").get_attribute("data-state") == "open"

    go(d, url, "audit")
    find(d, "#audit table")
    audit = find(d, "#audit").text
    assert "apps/teama" in audit and "apps/teamb" not in audit and "teamb.example.com" not in audit
    options = [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#audit-app option")]
    assert "teamb" not in options

    # Another team's page, asked for by its address, shows the API's refusal and none of its data.
    go(d, url, "links/teamb")
    refusal = find(d, ".error-box").text
    assert "PERMISSION_DENIED" in refusal and "apps/teamb" in refusal, refusal

    before = api("Routes.Get", app="teamb", route="home")
    answer = d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/rpc', {method: 'POST', headers: {'Content-Type': 'application/json',
              Authorization: 'Bearer ' + sessionStorage.getItem('routereg.console.token')},
              body: JSON.stringify({jsonrpc: '2.0', id: 1, method: 'Routes.SwitchOff', params: {app: 'teamb',
              route: 'home', platform: 'ios', versions: ['1.0'], reason: 'forged'}})})
          .then(r => r.json()).then(done, e => done({failed: String(e)}));
    """)
    assert answer["error"]["code"] == 7, json.dumps(answer)
    assert "apps/teamb" in answer["error"]["message"]
    assert api("Routes.Get", app="teamb", route="home") == before
    assert not [e for e in api("Audit.List", resource="apps/teamb")["entries"] if e["actor"] == token_id]
    assert not severe_console_errors(d)
