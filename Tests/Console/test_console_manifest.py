"""Routes as code in the console: a route a manifest manages (Manifests.Apply created or adopted it) is marked in
the app's route list with the manifest's source; a route added by hand is not."""

from selenium.webdriver.common.by import By

from console import find, go, severe_console_errors, sign_in


def test_routes_a_manifest_manages_are_marked_with_its_source(server, api, browser):
    url, d = server["url"], browser
    app = {"id": "managed", "ios": {"appIds": ["ABCDE12345.com.example.managed"]}}
    api("Apps.Create", app=app)
    api("Domains.Create", domain={"host": "managed.example.com", "apps": ["managed"]})
    api("Manifests.Apply", manifest={"app": app, "domains": [{"host": "managed.example.com"}], "routes": [
        {"id": "profile", "pattern": {"path": "/u/*"}, "platforms": {"ios": {"since": "1.0"}}}]}, source="abc123")
    api("Routes.Create", app="managed", route={"id": "hand", "pattern": {"path": "/h/*"}})

    sign_in(d, url, server["api"].token)
    go(d, url, "apps/managed")
    find(d, "#routes")
    profile = find(d, '#routes tr[data-route="profile"]')
    marker = profile.find_element(By.CSS_SELECTOR, ".pill.managed")
    assert marker.text == "manifest abc123"
    assert "Managed by a manifest (routereg apply): abc123" in marker.get_attribute("title")
    hand = find(d, '#routes tr[data-route="hand"]')
    assert hand.find_elements(By.CSS_SELECTOR, ".pill.managed") == []
    assert severe_console_errors(d) == []
