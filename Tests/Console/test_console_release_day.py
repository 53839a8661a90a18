"""README's release day, done entirely in the browser by a release engineer, each step checked in the page and
through the API: add the route, dry run, publish, ✗ for the old version and ✓ for the new, switch off with a
reason, ⊘, the revision diff and the audit entry. Then a second person's change reaches the open matrix by
itself (Associations.Watch), and a screenshot of the matrix is kept."""

import json

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from console import (add_route, find, focus_cell, go, hover, matrix_cell, severe_console_errors, sign_in, wait,
                     wait_cell_state)

IOS_APP_ID = "ABCDE12345.com.badoo.Badoo"
HOST = "m.badoo.com"


@pytest.fixture(scope="module")
def tour(api):
    """The README's 60-second tour, through the API: where release day starts."""
    api("Apps.Create", app={"id": "badoo", "displayName": "Badoo", "ios": {"appIds": [IOS_APP_ID]}})
    api("Domains.Create", domain={"host": HOST, "apps": ["badoo"]})
    api("Routes.Create", app="badoo", route={"id": "profile", "pattern": {"path": "/u/*"}, "action": "open",
                                              "platforms": {"ios": {"since": "5.0"}}})
    api("Routes.Create", app="badoo", route={"id": "help", "pattern": {"path": "/help/*"}, "action": "exclude"})
    api("Releases.Publish", app="badoo", platform="ios", version="5.11.0")
    secret, token_id = api.token_for("releaser", "release engineer")
    return {"secret": secret, "token_id": token_id}


def check(api, version, url="https://m.badoo.com/l/a/42"):
    return api("CanOpen.Check", app="badoo", platform="ios", version=version, url=url)


def test_release_day_in_the_browser(server, api, browser, tour, artifacts):
    url, d = server["url"], browser
    sign_in(d, url, tour["secret"])
    assert find(d, "#who-role").text == "releaser"
    assert find(d, "#who-id").text == tour["token_id"]
    # Everything the console loads (page, modules, styles, icon), uncompressed, stays under 150 KB.
    loaded = d.execute_script("""
        const files = performance.getEntriesByType('resource').filter(e => e.name.includes('/console/'));
        return [performance.getEntriesByType('navigation')[0].decodedBodySize,
                files.reduce((sum, e) => sum + e.decodedBodySize, 0), files.length];""")
    print(f"\nconsole transfer: page {loaded[0]} B + {loaded[2]} files {loaded[1]} B")
    assert loaded[2] >= 10 and 0 < loaded[0] + loaded[1] < 150_000, loaded

    # 1. Add the route in the app's route list.
    go(d, url, "apps/badoo")
    row = add_route(d, "lookalikes", "/l/a/*", "5.12.0", "Lookalikes")
    assert "/l/a/*" in row.text and "since 5.12.0" in row.text and "Lookalikes" in row.text
    route = api("Routes.Get", app="badoo", route="lookalikes")
    assert route["platforms"]["ios"]["since"] == "5.12.0" and route["position"] == 2
    revisions_before = api("Associations.ListRevisions", host=HOST)["revisions"]

    # 2. Dry run: the rule the publish would add; nothing written.
    go(d, url, "publish/badoo")
    find(d, "#publish-version").send_keys("5.12.0")
    assert not d.find_element(By.ID, "publish").is_enabled(), "publish needs a dry run first"
    d.find_element(By.ID, "dry-run").click()
    preview = find(d, "#preview")
    assert HOST in preview.text and "would change" in preview.text
    added = preview.find_elements(By.CSS_SELECTOR, ".diff li.add")
    assert any("/l/a/*" in li.text for li in added), preview.text
    assert api("Associations.ListRevisions", host=HOST)["revisions"] == revisions_before
    with pytest.raises(Exception):
        api("Releases.Get", app="badoo", platform="ios", version="5.12.0")

    # 3. Publish: a new revision with /l/a/*.
    find(d, "#publish").click()
    result = find(d, "#publish-result")
    assert "5.12.0 is live" in result.text and "new revision" in result.text
    assert api("Releases.Get", app="badoo", platform="ios", version="5.12.0")["state"] == "live"
    latest = api("Associations.Get", host=HOST)
    assert "/l/a/*" in str(latest["document"])
    new_revision = latest["revision"]

    # 4. The matrix: ✗ for 5.11.0 (with its reason), ✓ for 5.12.0.
    go(d, url, "matrix/badoo/ios")
    old, new = matrix_cell(d, "lookalikes", "5.11.0"), matrix_cell(d, "lookalikes", "5.12.0")
    assert (old.text, old.get_attribute("data-state")) == ("✗", "fallback")
    assert (new.text, new.get_attribute("data-state")) == ("✓", "open")
    hover(d, old)
    assert "supported since 5.12.0" in find(d, "#cell-reason").text
    assert "supported since 5.12.0" in old.get_attribute("title")
    legend = find(d, ".legend").text
    for words in ("opens in the app", "falls back to the browser", "switched off", "excluded"):
        assert words in legend
    decision = check(api, "5.11.0")
    assert (decision["decision"], decision["reason"]) == ("open_in_browser", "unsupported_version")
    assert decision["fallbackUrl"] == "https://m.badoo.com/l/a/42?ul_fallback=1"
    assert check(api, "5.12.0")["decision"] == "open_in_app"

    # 5. 5.12.0 crashes on lookalikes: switch it off from its cell; a reason is required.
    new.click()
    dialog = find(d, "dialog.modal")
    assert "Switch off lookalikes for iOS 5.12.0" in dialog.text
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert d.find_elements(By.CSS_SELECTOR, "dialog.modal[open]"), "no reason: the dialog stays open"
    assert api("Routes.Get", app="badoo", route="lookalikes").get("switchedOff", {}).get("ios", []) == []
    dialog.find_element(By.ID, "switch-reason").send_keys("crash in 5.12.0")
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    assert wait_cell_state(d, "lookalikes", "5.12.0", "switched_off")["mark"] == "⊘"
    focus_cell(d, "lookalikes", "5.12.0")
    wait(d).until(lambda drv: "crash in 5.12.0" in drv.find_element(By.ID, "cell-reason").text)
    switched = api("Routes.Get", app="badoo", route="lookalikes")["switchedOff"]["ios"]
    assert switched == [{"version": "5.12.0", "reason": "crash in 5.12.0"}]
    assert check(api, "5.12.0")["reason"] == "switched_off"
    off_revision = api("Associations.Get", host=HOST)
    assert off_revision["revision"] == new_revision + 1 and "/l/a/*" not in str(off_revision["document"])
    # Keyboard: arrows move between cells, and the reason follows the focus.
    d.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    assert d.switch_to.active_element.get_attribute("data-version") == "5.11.0"
    wait(d).until(lambda drv: "supported since 5.12.0" in drv.find_element(By.ID, "cell-reason").text)
    d.save_screenshot(str(artifacts / "matrix.png"))

    # 6. The revision diff shows exactly that /l/a/* left the AASA.
    go(d, url, f"documents/{HOST}")
    find(d, f'#revisions tr[data-revision="{off_revision["revision"]}"]')
    # The server runs with --no-delivery-watch: what Apple's CDN serves is not known, and the page says so.
    wait(d).until(lambda drv: "Apple's CDN: not observed yet" in drv.find_element(By.ID, "doc-delivery").text)
    find(d, "#diff").click()
    diff = find(d, "#doc-diff")
    assert f"revision {new_revision} → {new_revision + 1}" in diff.text
    removed = [li.find_element(By.TAG_NAME, "code").text for li in diff.find_elements(By.CSS_SELECTOR, "li.del")]
    assert not diff.find_elements(By.CSS_SELECTOR, "li.add")
    api_diff = api("Associations.Diff", host=HOST, fromRevision=new_revision, toRevision=new_revision + 1)
    assert api_diff["added"] == [] and api_diff["changed"] == []
    # /l/a/* is gone, and /help/* with it: an exclude is emitted only before some open rule that follows it.
    assert {r["rule"].get("/") for r in api_diff["removed"]} == {"/l/a/*", "/help/*"}
    assert [json.loads(text) for text in removed] == [r["rule"] for r in api_diff["removed"]]
    # Any revision's bytes.
    d.find_element(By.CSS_SELECTOR, f'#revisions tr[data-revision="{new_revision}"] button.view').click()
    assert "/l/a/*" in find(d, "#doc-bytes").text
    # What decides this URL.
    form = find(d, "#decide")
    form.find_element(By.NAME, "version").send_keys("5.11.0")
    form.find_element(By.NAME, "url").send_keys("https://m.badoo.com/u/42")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    decided = find(d, "#decide-output .decision")
    assert "open_in_app" in decided.text and "profile" in decided.text and "/u/*" in decided.text

    # 7. The audit log has the switch-off, by this token, with its reason.
    go(d, url, "audit")
    find(d, "#audit table")
    method = d.find_element(By.ID, "audit-method")
    method.find_element(By.CSS_SELECTOR, 'option[value="Routes.SwitchOff"]').click()
    wait(d).until(lambda drv: all("Routes.SwitchOff" in r.text for r in drv.find_elements(By.CSS_SELECTOR, "#audit tbody tr"))
                  and drv.find_elements(By.CSS_SELECTOR, "#audit tbody tr"))
    rows = d.find_elements(By.CSS_SELECTOR, "#audit tbody tr")
    assert len(rows) == 1
    assert tour["token_id"] in rows[0].text and "apps/badoo/routes/lookalikes" in rows[0].text
    assert "crash in 5.12.0" in rows[0].text
    entries = api("Audit.List", resource="apps/badoo/routes/lookalikes")["entries"]
    assert any(e["method"] == "Routes.SwitchOff" and e["actor"] == tour["token_id"] for e in entries)
    assert any(e["method"] == "Routes.Create" and e["actor"] == tour["token_id"] for e in entries)
    assert not severe_console_errors(d)


def test_an_open_matrix_follows_someone_elses_change(server, api, browser, tour):
    """Two people, one matrix: a switch-on made elsewhere (here, the API) reaches the open page by itself."""
    url, d = server["url"], browser
    sign_in(d, url, tour["secret"])
    go(d, url, "matrix/badoo/ios")
    wait_cell_state(d, "lookalikes", "5.12.0", "switched_off")
    find(d, "#live.on")
    wait(d).until(lambda drv: drv.execute_script("return document.documentElement.dataset.watching") == "true")
    api("Routes.SwitchOn", app="badoo", route="lookalikes", platform="ios", versions=["5.12.0"])
    assert wait_cell_state(d, "lookalikes", "5.12.0", "open", seconds=20)["mark"] == "✓"
    assert d.current_url.endswith("#/matrix/badoo/ios")


def test_an_editor_edits_moves_and_removes_routes(server, api, browser):
    url, d = server["url"], browser
    api("Apps.Create", app={"id": "edits", "ios": {"appIds": ["ABCDE12345.com.example.Edits"]}})
    for route_id in ("first", "second", "third"):
        api("Routes.Create", app="edits", route={"id": route_id, "pattern": {"path": f"/{route_id}/*"},
                                                  "action": "open", "platforms": {"ios": {"since": "1.0"}},
                                                  "comment": f"{route_id} comment"})
    sign_in(d, url, api.token)
    go(d, url, "apps/edits")

    row = find(d, '#routes tr[data-route="second"]')
    row.find_element(By.CSS_SELECTOR, "button.edit").click()
    dialog = find(d, "dialog.modal")
    comment = dialog.find_element(By.NAME, "comment")
    assert comment.get_attribute("value") == "second comment", "the form starts from the route as it is"
    comment.clear()
    comment.send_keys("edited in the console")
    until = dialog.find_element(By.NAME, "iosUntil")
    until.send_keys("2.0")
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(d).until(lambda drv: "edited in the console" in drv.find_element(By.CSS_SELECTOR, '#routes tr[data-route="second"]').text)
    second = api("Routes.Get", app="edits", route="second")
    assert second["comment"] == "edited in the console" and second["platforms"]["ios"] == {"since": "1.0", "until": "2.0"}

    find(d, '#routes tr[data-route="third"] button[aria-label="Move third up"]').click()
    wait(d).until(lambda drv: [r.get_attribute("data-route") for r in drv.find_elements(By.CSS_SELECTOR, "#routes tbody tr")]
                  == ["first", "third", "second"])
    listed = api("Routes.List", app="edits")["routes"]
    assert [r["id"] for r in listed] == ["first", "third", "second"]

    find(d, '#routes tr[data-route="first"] button.danger').click()
    find(d, "dialog.modal button[type=submit]").click()
    wait(d).until(lambda drv: not drv.find_elements(By.CSS_SELECTOR, '#routes tr[data-route="first"]'))
    assert [r["id"] for r in api("Routes.List", app="edits")["routes"]] == ["third", "second"]
