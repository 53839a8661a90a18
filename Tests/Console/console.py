"""Helpers that drive the console like a person: sign in, go to a page, wait for what they would see."""

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 15


def wait(driver, seconds=WAIT):
    return WebDriverWait(driver, seconds)


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


def matrix_cell(driver, route, version):
    return find(driver, f'#matrix .c[data-route="{route}"][data-version="{version}"]')


def wait_cell_state(driver, route, version, state, seconds=WAIT):
    css = f'#matrix .c[data-route="{route}"][data-version="{version}"][data-state="{state}"]'
    return wait(driver, seconds).until(EC.presence_of_element_located((By.CSS_SELECTOR, css)))


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
