"""Helpers that drive the console like a person: sign in, go to a page, wait for what they would see."""

from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 15


def wait(driver, seconds=WAIT):
    # Pages redraw when data changes (their own writes, live refresh): an element read mid-redraw is re-read.
    return WebDriverWait(driver, seconds, ignored_exceptions=[StaleElementReferenceException])


def find(driver, css, seconds=WAIT):
    return wait(driver, seconds).until(EC.visibility_of_element_located((By.CSS_SELECTOR, css)))


def sign_in(driver, url, token):
    """Opens the console with a fresh session and signs in; returns once the navigation shows."""
    driver.get(url + "/console/#/apps")
    driver.execute_script("sessionStorage.clear()")
    driver.refresh()  # a new document: the previous test's session is gone
    field = find(driver, "#token")
    field.send_keys(token)
    driver.find_element(By.ID, "sign-in").click()
    find(driver, "#nav")


def go(driver, url, hash_path):
    driver.get(f"{url}/console/#/{hash_path}")


def add_route(driver, route_id, path, ios_since, comment):
    """Fills and sends the Add route dialog of an app's route list; returns the new row."""
    find(driver, "#add-route").click()
    dialog = find(driver, "dialog.modal")
    for name, value in (("id", route_id), ("path", path), ("iosSince", ios_since), ("comment", comment)):
        dialog.find_element(By.NAME, name).send_keys(value)
    dialog.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    return find(driver, f'#routes tr[data-route="{route_id}"]')


def matrix_cell(driver, route, version):
    return find(driver, f'#matrix .c[data-route="{route}"][data-version="{version}"]')


def cell(driver, route, version):
    """A matrix cell's state, mark and title, read in one step (a redraw cannot split them)."""
    return driver.execute_script("""
        const c = document.querySelector(`#matrix .c[data-route="${arguments[0]}"][data-version="${arguments[1]}"]`);
        return c && {state: c.dataset.state, mark: c.textContent, title: c.title};""", route, version)


def wait_cell_state(driver, route, version, state, seconds=WAIT):
    """Waits until the cell shows state; returns its state, mark and title."""
    return wait(driver, seconds).until(lambda drv: (c := cell(drv, route, version)) and c["state"] == state and c)


def focus_cell(driver, route, version):
    """Focuses a cell (its reason shows below the matrix)."""
    wait(driver).until(lambda drv: drv.execute_script("""
        const c = document.querySelector(`#matrix .c[data-route="${arguments[0]}"][data-version="${arguments[1]}"]`);
        if (c) c.focus();
        return c != null && document.activeElement === c;""", route, version))


def hover(driver, element):
    ActionChains(driver).move_to_element(element).perform()


def no_alert(driver):
    try:
        driver.switch_to.alert
    except NoAlertPresentException:
        return True
    return False


def severe_console_errors(driver):
    """Browser log entries at SEVERE level (CSP violations, script errors), favicon noise aside."""
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
