"""An app with 1,000 routes × 50 live versions: the matrix draws in under 500 ms and stays a few hundred
elements (only the visible rows exist), and scrolling reaches the last route. Runs last: after it every write
rebuilds a snapshot with 50,000 cells."""

import time

from selenium.webdriver.common.by import By

from console import find, go, matrix_cell, sign_in, wait

ROUTES, VERSIONS = 1000, 50


def test_a_1000_by_50_matrix_renders_in_under_500_ms(server, api, browser, artifacts):
    url, d = server["url"], browser
    api("Apps.Create", app={"id": "big", "ios": {"appIds": ["ABCDE12345.com.example.Big"]}})
    api("Domains.Create", domain={"host": "big.example.com", "apps": ["big"]})
    # Versions first, while the app has no routes (each publish regenerates the documents), then every route
    # in one write.
    for minor in range(VERSIONS):
        api("Releases.Publish", app="big", platform="ios", version=f"1.{minor}.0")
    api("Routes.BatchCreate", app="big", routes=[
        {"id": f"r{i:04d}", "pattern": {"path": f"/s{i}/*"}, "action": "open",
         "platforms": {"ios": {"since": f"1.{i % 60}.0"}}} for i in range(ROUTES)])
    matrix = api("Matrix.Get", app="big", platform="ios")
    assert len(matrix["routes"]) == ROUTES and len(matrix["versions"]) == VERSIONS

    sign_in(d, url, api.token)
    timings = []
    for _ in range(3):
        go(d, url, "apps")
        find(d, ".grid-table")
        started = time.monotonic()
        go(d, url, "matrix/big/ios")
        grid = wait(d, 60).until(lambda drv: drv.find_element(By.CSS_SELECTOR, '#matrix[data-ready="true"]'))
        timings.append({"render_ms": float(grid.get_attribute("data-render-ms")),
                        "fetch_ms": float(grid.get_attribute("data-fetch-ms")),
                        "wall_ms": (time.monotonic() - started) * 1000})
    print(f"\n1,000 × 50 matrix: {timings}")
    # The best of three: the machine is shared, and a slow run says more about the neighbours than the page.
    assert min(t["render_ms"] for t in timings) < 500, timings
    cells = len(d.find_elements(By.CSS_SELECTOR, "#matrix .c"))
    assert 0 < cells < 60 * VERSIONS, f"{cells} cells in the page: rows are not virtualized"
    assert matrix_cell(d, "r0001", "1.0.0").get_attribute("data-state") == "fallback"
    assert matrix_cell(d, "r0001", "1.1.0").get_attribute("data-state") == "open"
    # Scrolling to the end draws the last rows.
    d.execute_script("const m = document.getElementById('matrix'); m.scrollTop = m.scrollHeight;")
    last = matrix_cell(d, f"r{ROUTES - 1:04d}", f"1.{VERSIONS - 1}.0")
    assert last.get_attribute("data-state") == "open"  # since 1.39.0 (999 % 60), live 1.49.0
    # The filter narrows the rows.
    filter_box = find(d, "#matrix-filter")
    filter_box.send_keys("r0999")
    wait(d).until(lambda drv: len(drv.find_elements(By.CSS_SELECTOR, "#matrix .mrow")) == 1)
    d.save_screenshot(str(artifacts / "matrix-1000x50.png"))
