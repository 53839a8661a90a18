"""The Links page: a releaser creates a short link from a route, sees its social card and landing page before
saving, then its effective minimum version per platform and why (checked against Links.Resolve), and its clicks
per day after real visits to the short URL with a phone's, a crawler's and a desktop's user agent. The list
searches and pages, copies, disables (expiry now: the link answers 404) and deletes; the matrix marks the
route a link opens; markup in every link field stays text. A screenshot of a link's page is kept."""

import http.client
import urllib.parse

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from console import find, go, no_alert, severe_console_errors, sign_in, wait

APP, SITE, LINKS = "chat", "m.chat.example", "go.chat.example"
IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"
ANDROID = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36"
SLACK = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"
DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120.0 Safari/537.36"


@pytest.fixture(scope="module")
def chat(api):
    """An app with a web domain, a link domain (its route claims short links from iOS 5.10), a profile route
    (iOS since 5.0, Android since 300) and a help route no link opens; iOS 5.12.0 and Android 310 are live."""
    api("Apps.Create", app={"id": APP, "displayName": "Chat",
                            "ios": {"appIds": ["ABCDE12345.com.example.Chat"], "appStoreId": "123456789"},
                            "android": {"packageName": "com.example.chat",
                                        "sha256CertFingerprints": [":".join(["AB"] * 32)]}})
    api("Domains.Create", domain={"host": SITE, "apps": [APP]})
    api("Domains.Create", domain={"host": LINKS, "apps": [APP], "links": True})
    api("Routes.Create", app=APP, route={"id": "profile", "pattern": {"path": "/u/*"}, "action": "open",
                                         "platforms": {"ios": {"since": "5.0"}, "android": {"since": "300"}}})
    api("Routes.Create", app=APP, route={"id": "help", "pattern": {"path": "/help/*"}, "action": "open",
                                         "platforms": {"ios": {"since": "5.0"}}})
    api("Routes.Create", app=APP, route={"id": "links-go", "pattern": {"path": "/*"}, "action": "open",
                                         "domains": [LINKS], "platforms": {"ios": {"since": "5.10"}}})
    api("Releases.Publish", app=APP, platform="ios", version="5.12.0")
    api("Releases.Publish", app=APP, platform="android", version="310")
    secret, _ = api.token_for("releaser", "campaign manager")
    return secret


def visit(url, code, user_agent):
    """A real GET of https://go.chat.example/{code}, sent to the test server with that Host; no redirect followed."""
    where = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=10)
    try:
        connection.request("GET", f"/{code}", headers={"Host": LINKS, "User-Agent": user_agent})
        response = connection.getresponse()
        return response.status, response.getheader("Location"), response.read().decode("utf-8", "replace")
    finally:
        connection.close()


def fill_in(d, name, value):
    element = find(d, f"#link-{name}")
    element.clear()
    element.send_keys(value)


def injected(d):
    """Elements or handlers that only markup parsed as HTML could have made."""
    return d.execute_script("""
        return document.querySelectorAll('main img, main script, main iframe, [onerror], [onload], [onclick]').length""")


def test_create_a_link_and_see_its_preview_minimum_versions_and_clicks(server, api, browser, chat, artifacts):
    url, d = server["url"], browser
    sign_in(d, url, chat)
    go(d, url, f"links/{APP}")
    find(d, "#new-link").click()

    # The target comes from a route: picking it fills in the pattern, the rest is typed.
    Select(find(d, "#link-route")).select_by_value("profile")
    target = find(d, "#link-target")
    assert target.get_attribute("value") == f"https://{SITE}/u/"
    target.send_keys("42")
    wait(d).until(lambda drv: "profile" in drv.find_element(By.ID, "target-decided").text)
    fill_in(d, "code", "hello42")
    fill_in(d, "title", "Say hi to Ann")
    fill_in(d, "description", "Ann is waiting")
    fill_in(d, "image", "https://img.chat.example/ann.png")
    fill_in(d, "iosMin", "5.12.1")
    fill_in(d, "maxClicks", "500")
    fill_in(d, "utm-campaign", "spring")
    fill_in(d, "tags", "launch, q3")
    decided = wait(d).until(lambda drv: (t := drv.find_element(By.ID, "target-decided").text) and "5.12.1" in t and t)
    assert "iOS 5.12.1 (the link's own)" in decided and "Android 300 (route since)" in decided, decided

    # Before anything is saved: the social card and the landing page, as the link domain will serve them.
    card = find(d, "#card-preview")
    assert "Say hi to Ann" in card.text and "Ann is waiting" in card.text and f"{LINKS} · Chat" in card.text
    assert "https://img.chat.example/ann.png" in card.text  # named, not loaded: the console loads nothing from elsewhere
    landing = find(d, "#landing-preview")
    for text in ("Chat", "Say hi to Ann", "Open in Chat", f"https://{SITE}/u/42", "Get Chat", "App Store, campaign go.chat.example/hello42",
                 "Continue on the web"):
        assert text in landing.text, (text, landing.text)
    Select(find(d, "#landing-platform")).select_by_value("android")
    wait(d).until(lambda drv: "Google Play" in drv.find_element(By.ID, "landing-preview").text)
    assert not api("Links.List", app=APP)["links"], "nothing is written before Create"

    d.save_screenshot(str(artifacts / "links-new.png"))
    find(d, "#create-link").click()
    wait(d).until(lambda drv: drv.current_url.endswith(f"#/links/{APP}/{LINKS}/hello42"))
    link = api("Links.Get", domain=LINKS, code="hello42")
    assert link["target"] == f"https://{SITE}/u/42" and link["preview"]["title"] == "Say hi to Ann"
    assert link["ios"]["minVersion"] == "5.12.1" and not (link.get("android") or {}).get("minVersion")
    assert link["maxClicks"] == 500 and link["utm"] == {"campaign": "spring"} and link["tags"] == ["launch", "q3"]
    assert find(d, "#link-max-clicks").text == "500 clicks by people"
    assert "utm_campaign=spring" in find(d, "#link-utm").text
    assert find(d, "#link-short-url").text == f"https://{LINKS}/hello42"

    # The effective minimum per platform and why, as Links.Resolve tells the apps.
    ios_row = find(d, '#minimums tr[data-platform="ios"]')
    android_row = find(d, '#minimums tr[data-platform="android"]')
    ios = api("Links.Resolve", url=f"https://{LINKS}/hello42", platform="ios", version="5.12.0")
    android = api("Links.Resolve", url=f"https://{LINKS}/hello42", platform="android", version="310")
    assert (ios["minVersion"], ios["minVersionSource"]) == ("5.12.1", "link")
    assert android["minVersionSource"] == "route" and android["route"] == "profile"
    assert ios_row.get_attribute("data-minimum") == "5.12.1" and ios_row.get_attribute("data-source") == "link"
    assert "The link's own minimum (5.12.1), later than route profile's since (5.0)" in ios_row.text, ios_row.text
    assert "iOS 5.12.0, the newest live: falls back to the browser (unsupported version, supported since 5.12.1)" in ios_row.text
    assert android_row.get_attribute("data-minimum") == android["minVersion"]
    assert android_row.get_attribute("data-source") == "route"
    assert "Route profile's since (300); the link sets no minimum of its own." in android_row.text, android_row.text
    assert "Android 310, the newest live: opens in the app" in android_row.text
    notes = find(d, "#link-minimums .short-route").text
    assert f"iOS: the app opens https://{LINKS}/hello42 itself from 5.10 (route links-go)" in notes, notes
    assert "Android: no route claims the short URL" in notes, notes

    # Real clicks: each user agent gets its answer, and each is counted by platform and outcome.
    assert find(d, "#link-clicks").get_attribute("data-total") == "0"
    answers = [visit(url, "hello42", ua) for ua in (IPHONE, IPHONE, IPHONE, ANDROID, ANDROID, SLACK, DESKTOP)]
    assert [a[0] for a in answers] == [200] * 6 + [302]
    assert answers[-1][1] == f"https://{SITE}/u/42?utm_campaign=spring"  # the campaign rides along on the web
    assert "Open in Chat" in answers[0][2] and 'og:title" content="Say hi to Ann"' in answers[5][2]
    assert visit(url, "nothing-here", IPHONE)[0] == 404
    find(d, "#clicks-refresh")
    d.execute_script("document.getElementById('clicks-refresh').click()")  # a toast may cover it
    wait(d).until(lambda drv: drv.find_element(By.ID, "link-clicks").get_attribute("data-total") == "7")
    stats = api("Links.Stats", domain=LINKS, code="hello42")
    assert stats["total"] == 7
    today = stats["counts"][0]["day"]
    assert "6 by people, 1 by bots" in find(d, "#clicks-total").text

    # The QR code: the server's drawing of the short URL marked as a scan, and the downloads of the page.
    assert find(d, "#link-qr-url").text == f"https://{LINKS}/hello42?qr=1"
    assert d.execute_script("return document.querySelectorAll('#link-qr svg path').length") == 1
    saved = d.execute_script("""
        window.__saved = [];
        URL.createObjectURL = (blob) => { window.__saved.push(blob); return 'blob:kept-by-the-test'; };
        HTMLAnchorElement.prototype.click = function () {};  // the test reads the blob; nothing is saved
        return true;""")
    assert saved
    for button in ("qr-download", "clicks-csv"):  # clicked by script: the sticky header may cover them
        find(d, f"#{button}")
        d.execute_script("document.getElementById(arguments[0]).click()", button)
    texts = d.execute_async_script("""
        const done = arguments[0];
        Promise.all(window.__saved.map((b) => b.text().then((t) => [b.type, t]))).then(done);""")
    assert texts[0][0] == "image/svg+xml" and texts[0][1] == api("Links.QRCode", domain=LINKS, code="hello42")["svg"]
    assert texts[1][0] == "text/csv"
    csv_lines = texts[1][1].split("\r\n")
    assert csv_lines[0] == "day,platform,outcome,source,visitor,clicks"
    assert f"{today},ios,landing,link,person,3" in csv_lines and f"{today},crawler,crawler,link,bot,1" in csv_lines

    def segment(platform, outcome):
        return d.execute_script("""
            const s = document.querySelector(`#click-chart rect.seg[data-day="${arguments[0]}"][data-platform="${arguments[1]}"][data-outcome="${arguments[2]}"]`);
            return s && {count: s.dataset.count, fill: s.getAttribute('fill'), title: s.textContent, height: Number(s.getAttribute('height'))};""",
            today, platform, outcome)

    expected = {("ios", "landing"): 3, ("android", "landing"): 2, ("crawler", "crawler"): 1, ("desktop", "redirect"): 1}
    for (platform, outcome), count in expected.items():
        seg = segment(platform, outcome)
        assert seg and seg["count"] == str(count), (platform, outcome, seg)
        assert f"{today}" in seg["title"] and f": {count}" in seg["title"]
    assert segment("ios", "redirect") is None and segment("desktop", "landing") is None
    # Taller for more; each outcome its own pattern (readable without colour), named in the legend.
    assert segment("ios", "landing")["height"] > segment("android", "landing")["height"] > segment("desktop", "redirect")["height"]
    fills = {segment(p, o)["fill"] for p, o in expected}
    assert len(fills) == 3 and all(f.startswith("url(#") for f in fills), fills  # landing, crawler, redirect
    assert d.execute_script("return [...new Set([...document.querySelectorAll('#click-chart pattern')].map(p => p.innerHTML))].length") == 4
    legend = find(d, ".chart-legend").text
    for words in ("landing page (stripes)", "redirect (solid)", "preview page (dots)", "not found (cross-hatch)"):
        assert words in legend
    # Every bar says its count as text, and the numbers follow as a table.
    labels = d.execute_script("""return [...document.querySelectorAll('#click-chart g.platform-row')].map(
        r => [r.dataset.platform, [...r.querySelectorAll('text.count')].map(t => t.textContent).join(',')])""")
    assert dict(labels) == {"ios": "3", "android": "2", "desktop": "1", "crawler": "1"}, labels
    d.execute_script("document.querySelector('.chart-table').open = true")
    rows = {(r.get_attribute("data-platform"), r.get_attribute("data-outcome")): r.text
            for r in d.find_elements(By.CSS_SELECTOR, "#clicks-table tbody tr")}
    assert set(rows) == set(expected) and rows[("ios", "landing")].endswith("3")
    # README's screenshot: the whole page, without the toast.
    d.execute_script("document.querySelector('.chart-table').open = false; document.getElementById('toasts').replaceChildren()")
    d.set_window_size(1440, 1640)
    try:
        d.execute_script("window.scrollTo(0, 0)")
        d.save_screenshot(str(artifacts / "links.png"))
    finally:
        d.set_window_size(1440, 900)

    # The matrix marks the route the link opens, and only that one.
    go(d, url, f"matrix/{APP}/ios")
    mark = find(d, '#matrix .mrow .link-mark[data-links="1"]')
    assert mark.find_element(By.XPATH, "..").text.startswith("profile")
    assert len(d.find_elements(By.CSS_SELECTOR, "#matrix .mrow .link-mark")) == 1
    assert not severe_console_errors(d)


def test_the_list_searches_pages_copies_disables_and_deletes(server, api, browser, chat):
    url, d = server["url"], browser
    api("Links.BatchCreate", app=APP, links=[
        {"code": f"batch{i:02d}", "target": f"https://{SITE}/u/{100 + i}",
         **({"tags": ["promo"], "utm": {"campaign": "summer" if i % 2 else "winter"}} if i < 4 else {})}
        for i in range(25)])
    sign_in(d, url, chat)
    d.execute_cdp_cmd("Browser.grantPermissions", {"origin": url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    go(d, url, f"links/{APP}")
    find(d, "#links-table")
    codes = lambda: d.execute_script(  # read in one step: a redraw cannot split it
        "return [...document.querySelectorAll('#links-table tbody tr')].map(r => r.dataset.code)")

    search = find(d, "#links-search")
    search.send_keys("batch")
    # Typing searches as it goes ("b", "bat", …): wait for the answer to the whole word.
    wait(d).until(lambda drv: drv.find_element(By.ID, "links").get_attribute("data-query") == "batch")
    assert len(codes()) == 20 and all(c.startswith("batch") for c in codes())
    first_page = codes()
    find(d, "#links-older").click()
    wait(d).until(lambda drv: len(codes()) == 5 and "Page 2" in drv.find_element(By.ID, "links-page").text)
    assert set(first_page).isdisjoint(codes()) and len(set(first_page) | set(codes())) == 25
    assert not find(d, "#links-older").is_enabled()
    find(d, "#links-newer").click()
    wait(d).until(lambda drv: codes() == first_page)
    search.clear()
    search.send_keys("u/107")  # the text matches targets too
    wait(d).until(lambda drv: drv.find_element(By.ID, "links").get_attribute("data-query") == "u/107")
    assert codes() == ["batch07"]

    # Tag and campaign filters narrow the list; the row shows both.
    search.clear()
    find(d, "#links-tag").send_keys("promo")
    wait(d).until(lambda drv: drv.find_element(By.ID, "links").get_attribute("data-filter") == "promo|")
    assert codes() == ["batch00", "batch01", "batch02", "batch03"]
    find(d, "#links-campaign").send_keys("summer")
    wait(d).until(lambda drv: drv.find_element(By.ID, "links").get_attribute("data-filter") == "promo|summer")
    assert codes() == ["batch01", "batch03"]
    assert "summer" in find(d, '#links-table tr[data-code="batch01"] td.tags').text
    find(d, "#links-tag").clear()
    find(d, "#links-campaign").clear()
    search.send_keys("u/107")
    wait(d).until(lambda drv: drv.find_element(By.ID, "links").get_attribute("data-filter") == "|"
                  and drv.find_element(By.ID, "links").get_attribute("data-query") == "u/107")
    assert codes() == ["batch07"]

    # Copy puts the short URL on the clipboard.
    d.find_element(By.CSS_SELECTOR, '#links-table tr[data-code="batch07"] button.copy').click()
    wait(d).until(lambda drv: f"Copied https://{LINKS}/batch07" in drv.find_element(By.ID, "toasts").text)
    copied = d.execute_async_script("const done = arguments[0]; navigator.clipboard.readText().then(done, e => done('failed: ' + e));")
    assert copied == f"https://{LINKS}/batch07"

    # Disable: the link is switched off (its expiry untouched) and the short URL answers 404; enable brings it back.
    assert visit(url, "batch07", DESKTOP)[0] == 302
    d.find_element(By.CSS_SELECTOR, '#links-table tr[data-code="batch07"] button.toggle').click()
    wait(d).until(lambda drv: "disabled" in drv.find_element(By.CSS_SELECTOR, '#links-table tr[data-code="batch07"] .link-status').text)
    off = api("Links.Get", domain=LINKS, code="batch07")
    assert off["disabled"] is True and off.get("expiresAt") is None
    assert visit(url, "batch07", DESKTOP)[0] == 404
    row = find(d, '#links-table tr[data-code="batch07"]')
    assert row.find_element(By.CSS_SELECTOR, "button.toggle").text == "Enable"
    row.find_element(By.CSS_SELECTOR, "button.toggle").click()
    wait(d).until(lambda drv: "live" in drv.find_element(By.CSS_SELECTOR, '#links-table tr[data-code="batch07"] .link-status').text)
    assert api("Links.Get", domain=LINKS, code="batch07").get("disabled") is None
    assert visit(url, "batch07", DESKTOP)[0] == 302

    # Delete, after a confirmation: gone from the list, the API and the link domain.
    find(d, '#links-table tr[data-code="batch07"] button.delete').click()
    dialog = find(d, "dialog.modal")
    assert f"Delete https://{LINKS}/batch07?" in dialog.text
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(d).until(lambda drv: not drv.find_elements(By.CSS_SELECTOR, '#links-table tr[data-code="batch07"]'))
    assert "No link's code or target contains" in find(d, "#links").text
    with pytest.raises(Exception):
        api("Links.Get", domain=LINKS, code="batch07")
    assert visit(url, "batch07", DESKTOP)[0] == 404
    assert not severe_console_errors(d)


def test_webhooks_are_created_listed_and_deleted_on_the_links_page(server, api, browser, chat):
    url, d = server["url"], browser
    sign_in(d, url, chat)
    go(d, url, f"links/{APP}")
    wait(d).until(lambda drv: drv.find_element(By.ID, "webhooks").get_attribute("data-count") == "0")
    find(d, "#webhook-new").click()
    dialog = find(d, "dialog.modal")
    dialog.find_element(By.ID, "webhook-url").send_keys("https://hooks.example.com/chat")
    dialog.find_element(By.CSS_SELECTOR, 'input[value="link.updated"]').click()  # not this one
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    secret = find(d, "#webhook-secret").text
    assert secret.startswith("whsec_")
    find(d, "dialog.modal button[type=submit]").click()
    wait(d).until(lambda drv: drv.find_element(By.ID, "webhooks").get_attribute("data-count") == "1")
    hooks = api("Webhooks.List", app=APP)["webhooks"]
    assert [h["url"] for h in hooks] == ["https://hooks.example.com/chat"]
    assert hooks[0]["events"] == ["link.created", "link.deleted", "link.clicked"] and "secret" not in hooks[0]
    hook_row = f'#webhooks-table tr[data-id="{hooks[0]["id"]}"]'
    row = find(d, hook_row)
    assert "link.created, link.deleted, link.clicked" in row.text
    # A receiver the server may not reach is refused, the field named, nothing created.
    find(d, "#webhook-new").click()
    dialog = find(d, "dialog.modal")
    dialog.find_element(By.ID, "webhook-url").send_keys("https://10.0.0.1/hook")
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(d).until(lambda drv: "webhook.url" in drv.find_element(By.CSS_SELECTOR, "dialog.modal .dialog-error").text)
    dialog.find_element(By.CSS_SELECTOR, "button.ghost").click()
    # The deliveries log, then delete.
    row = find(d, hook_row)
    row.find_element(By.CSS_SELECTOR, "button.deliveries").click()
    dialog = find(d, "dialog.modal")
    assert "Deliveries to https://hooks.example.com/chat" in dialog.text
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait(d).until(lambda drv: not drv.find_elements(By.CSS_SELECTOR, "dialog.modal"))
    find(d, hook_row + " button.delete").click()
    find(d, "dialog.modal button[type=submit]").click()
    wait(d).until(lambda drv: drv.find_element(By.ID, "webhooks").get_attribute("data-count") == "0")
    assert api("Webhooks.List", app=APP)["webhooks"] == []
    assert not severe_console_errors(d)


def test_a_reader_sees_links_but_no_write_controls(server, api, browser, chat):
    url, d = server["url"], browser
    api("Links.Create", app=APP, link={"code": "seen", "target": f"https://{SITE}/u/9", "ios": {"minVersion": "6"}})
    reader, _ = api.token_for("reader", "links reader")
    sign_in(d, url, reader)
    go(d, url, f"links/{APP}")
    find(d, "#links-table")
    assert not d.find_elements(By.ID, "new-link")
    assert not d.find_elements(By.CSS_SELECTOR, "#links-table button.toggle, #links-table button.delete")
    assert d.find_elements(By.CSS_SELECTOR, "#links-table button.copy")
    go(d, url, f"links/{APP}/{LINKS}/seen")
    assert find(d, '#minimums tr[data-platform="ios"]').get_attribute("data-minimum") == "6.0.0"
    assert find(d, "#click-chart")
    assert not d.find_elements(By.ID, "link-toggle") and not d.find_elements(By.ID, "link-delete")
    assert not d.find_elements(By.ID, "webhooks")  # Webhooks.* need the releaser role


XSS = {
    "title": "<img src=x onerror=alert(1)>",
    "description": "</textarea><script>alert(2)</script>",
    "image": "https://img.chat.example/<img/src=x/onerror=alert(3)>",
    "target": f"https://{SITE}/u/<svg/onload=alert(4)>",
    "desktop": f"https://{SITE}/\"><img src=x onerror=alert(5)>",
    "code": "<b>x</b>",
}


def test_markup_in_every_link_field_stays_text(server, api, browser, chat):
    url, d = server["url"], browser
    sign_in(d, url, chat)
    go(d, url, f"links/{APP}/new")
    for name, value in XSS.items():
        fill_in(d, name, value)
    # The previews show it as typed, before the server has seen any of it.
    card, landing = find(d, "#card-preview"), find(d, "#landing-preview")
    for value in (XSS["title"], XSS["description"], XSS["image"]):
        assert value in card.text and value in landing.text
    assert XSS["target"] in landing.text
    assert not injected(d) and no_alert(d)

    # The server refuses what a link may not hold, field by field; each refusal is shown as text.
    refused = []
    for _ in range(len(XSS)):
        find(d, "#create-link").click()
        outcome = wait(d).until(lambda drv: (drv.find_elements(By.CSS_SELECTOR, "#create-error .error-box") or
                                             (drv.current_url.endswith("/new") is False and "done")))
        if outcome == "done":
            break
        text = outcome[0].text
        field = next(name for name, key in (("code", "link.code"), ("target", "link.target"), ("desktop", "link.desktopUrl"),
                                            ("image", "link.preview.imageUrl"), ("title", "link.preview.title"),
                                            ("description", "link.preview.description")) if key in text)
        refused.append(field)
        assert not injected(d) and no_alert(d)
        fill_in(d, field, {"code": "xss1", "target": f"https://{SITE}/u/7", "desktop": f"https://{SITE}/web"}[field])
        d.execute_script("document.querySelector('#create-error').replaceChildren()")
    assert refused == ["code", "target", "desktop"], refused
    wait(d).until(lambda drv: drv.current_url.endswith(f"#/links/{APP}/{LINKS}/xss1"))
    link = api("Links.Get", domain=LINKS, code="xss1")
    assert link["preview"] == {"title": XSS["title"], "description": XSS["description"], "imageUrl": XSS["image"]}

    # Stored markup is shown as text on the link's page and in the list, and runs nothing.
    find(d, "#minimums")
    page = find(d, "main").text
    for value in (XSS["title"], XSS["description"], XSS["image"]):
        assert value in page
    go(d, url, f"links/{APP}")
    find(d, "#links-search").send_keys("u/7")
    wait(d).until(lambda drv: drv.find_element(By.ID, "links").get_attribute("data-query") == "u/7")
    assert XSS["title"] in find(d, '#links-table tr[data-code="xss1"] .title').text
    assert not injected(d) and no_alert(d)
    assert not d.execute_script("return performance.getEntriesByType('resource').filter(e => /\\/x$|img\\.chat\\.example/.test(e.name)).length")
    assert not severe_console_errors(d)


def test_the_chart_puts_each_day_in_its_column_and_says_what_it_leaves_out(server, browser):
    """chart.js on its own, with counts no real click can make today: yesterday's, a week ago's, a year ago's."""
    url, d = server["url"], browser
    d.get(url + "/console/")
    drawn = d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const base = document.querySelector('script[type=module]').src.replace(/app\\.js$/, '');
        import(base + 'chart.js').then(({ clickChart }) => {
          const figure = clickChart([
            { day: '2026-03-10', platform: 'ios', outcome: 'landing', count: 4 },
            { day: '2026-03-09', platform: 'ios', outcome: 'redirect', count: 2 },
            { day: '2026-03-09', platform: 'ios', outcome: 'landing', count: 1 },
            { day: '2026-03-03', platform: 'android', outcome: 'not_found', count: 5 },
            { day: '2025-03-10', platform: 'desktop', outcome: 'redirect', count: 9 },
          ], { days: 14, today: '2026-03-10' });
          document.body.append(figure);
          const days = [...figure.querySelectorAll('.platform-row[data-platform="ios"] g.day')].map(g => g.dataset.day);
          const seg = (day, p, o) => figure.querySelector(`rect.seg[data-day="${day}"][data-platform="${p}"][data-outcome="${o}"]`);
          const x = (day, p, o) => Number(seg(day, p, o).getAttribute('x'));
          done({ first: days[0], last: days[days.length - 1], n: days.length,
                 shown: figure.dataset.shown, older: figure.dataset.older, caption: figure.querySelector('figcaption').textContent,
                 stackedOnOneBar: x('2026-03-09', 'ios', 'redirect') === x('2026-03-09', 'ios', 'landing'),
                 order: x('2026-03-03', 'android', 'not_found') < x('2026-03-09', 'ios', 'landing') && x('2026-03-09', 'ios', 'landing') < x('2026-03-10', 'ios', 'landing'),
                 desktop: figure.querySelector('.platform-row[data-platform="desktop"]').dataset.total,
                 label: figure.querySelector('svg.click-chart').getAttribute('aria-label') });
          figure.remove();
        }, (e) => done({ failed: String(e) }));
    """)
    assert drawn.get("failed") is None, drawn
    assert (drawn["first"], drawn["last"], drawn["n"]) == ("2026-02-25", "2026-03-10", 14)
    assert drawn["shown"] == "12" and drawn["older"] == "9" and "9 older not shown" in drawn["caption"]
    assert drawn["stackedOnOneBar"] and drawn["order"] and drawn["desktop"] == "0"
    assert "12 in all, iOS 7, Android 5, Desktop 0, Crawlers 0" in drawn["label"], drawn["label"]
