"""What the console must never do: run text as code, or let a role do what the API would refuse."""

import json

import pytest
from selenium.webdriver.common.by import By

from console import add_route, cell, find, focus_cell, go, matrix_cell, no_alert, severe_console_errors, sign_in, wait

XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def shop(api):
    """An app whose name, route comment and switch-off reason are all markup."""
    api("Apps.Create", app={"id": "shop", "displayName": XSS, "ios": {"appIds": ["ABCDE12345.com.example.Shop"]}})
    api("Domains.Create", domain={"host": "shop.example.com", "apps": ["shop"]})
    api("Routes.Create", app="shop", route={"id": "items", "pattern": {"path": "/i/*"}, "action": "open",
                                             "platforms": {"ios": {"since": "1.0"}}})
    api("Releases.Publish", app="shop", platform="ios", version="1.0")
    api("Releases.Publish", app="shop", platform="ios", version="2.0")
    api("Routes.SwitchOff", app="shop", route="items", platform="ios", versions=["1.0"], reason=XSS)
    return api


def no_injected_image(driver):
    return not driver.find_elements(By.CSS_SELECTOR, "main img, dialog img")


def test_markup_in_user_text_is_shown_as_text_and_runs_nothing(server, api, browser, shop):
    url, d = server["url"], browser
    editor, _ = api.token_for("releaser", "xss editor")
    sign_in(d, url, editor)
    # The comment goes in through the console's own form.
    go(d, url, "apps/shop")
    row = add_route(d, "offers", "/o/*", "2.0", XSS)
    assert row.find_element(By.CSS_SELECTOR, ".comment").text == XSS
    assert api("Routes.Get", app="shop", route="offers")["comment"] == XSS
    assert XSS in find(d, "h1").text  # the app's display name
    assert no_injected_image(d) and no_alert(d)

    # The switch-off reason, on the matrix cell and in the audit log.
    go(d, url, "matrix/shop/ios")
    focus_cell(d, "items", "1.0")
    assert XSS in find(d, "#cell-reason").text
    assert XSS in cell(d, "items", "1.0")["title"]
    go(d, url, "audit")
    find(d, "#audit table")
    for summary in d.find_elements(By.CSS_SELECTOR, "#audit details"):
        d.execute_script("arguments[0].open = true", summary)
    assert XSS in find(d, "#audit").text
    assert no_injected_image(d) and no_alert(d)
    # Nothing was even attempted: no request for the image, no CSP violation, no script error.
    assert not d.execute_script("return performance.getEntriesByType('resource').filter(e => /\\/x$/.test(e.name)).length")
    assert not severe_console_errors(d)


def test_the_console_sends_the_strict_csp(server):
    import urllib.request
    with urllib.request.urlopen(server["url"] + "/console/", timeout=10) as response:
        policy = response.headers["Content-Security-Policy"]
        page = response.read().decode()
    assert policy.startswith("default-src 'self'") and "unsafe-inline" not in policy
    assert "<script type=\"module\" src=" in page and "<script>" not in page


def test_a_viewer_sees_no_write_controls_and_a_forged_write_is_refused(server, api, browser, shop):
    url, d = server["url"], browser
    viewer, viewer_id = api.token_for("reader", "viewer")
    sign_in(d, url, viewer)
    assert find(d, "#who-role").text == "reader"

    go(d, url, "apps/shop")
    find(d, '#routes tr[data-route="items"]')
    assert not d.find_elements(By.ID, "add-route")
    assert not d.find_elements(By.CSS_SELECTOR, "#routes button")

    go(d, url, "matrix/shop/ios")
    open_cell = matrix_cell(d, "items", "2.0")
    assert open_cell.get_attribute("data-state") == "open"
    assert not d.find_elements(By.CSS_SELECTOR, "#matrix .c.w"), "no cell offers the kill switch"
    open_cell.click()
    assert not d.find_elements(By.CSS_SELECTOR, "dialog.modal"), "clicking a cell opens nothing"
    assert "Click to switch" not in find(d, "#cell-detail").text

    go(d, url, "publish/shop")
    find(d, "#read-only")
    assert not d.find_elements(By.ID, "publish") and not d.find_elements(By.ID, "dry-run")

    # The page is only a view: a write forged from it, with the viewer's own token, is refused by the API.
    before = api("Routes.Get", app="shop", route="items")
    answer = d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/rpc', {method: 'POST', headers: {'Content-Type': 'application/json',
              Authorization: 'Bearer ' + sessionStorage.getItem('routereg.console.token')},
              body: JSON.stringify({jsonrpc: '2.0', id: 1, method: 'Routes.SwitchOff', params: {app: 'shop',
              route: 'items', platform: 'ios', versions: ['2.0'], reason: 'forged'}})})
          .then(r => r.json()).then(done, e => done({failed: String(e)}));
    """)
    assert answer["error"]["code"] == 7, json.dumps(answer)
    assert answer["error"]["data"]["status"] == "PERMISSION_DENIED"
    assert api("Routes.Get", app="shop", route="items") == before
    assert not [e for e in api("Audit.List", resource="apps/shop")["entries"] if e["actor"] == viewer_id]
    # The token was never put in the URL or a cookie.
    assert viewer not in d.current_url and not d.get_cookies()
