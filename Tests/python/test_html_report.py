"""`signin-spec report --html` opened in a real browser: Debian's headless Chromium driven by
selenium (`make browser` installs both), the DOM checked (verdict rows, the counterexample's
highlighted path, stepping through the calls with the buttons and the keyboard), a screenshot
taken, and the page checked for accessibility by axe-core (as bundled by axe-selenium-python).

The model is the 2023 model with the define trigger's failed authentication turned into a
retryable error: `failAuthenticationRestarts`, `terminates` and two stated properties break.
"""

import json
import os
import pathlib
import shutil
import subprocess

import pytest
from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_serve_boto3 import BINARY, ROOT

NEEDLE = '      failingAnswer:\n        - restart: "NotAuthorizedException: the define trigger failed authentication"'
BROKEN = "      failingAnswer:\n        - error: NotAuthorizedException"
SCREENSHOT = ROOT / ".build" / "html-report.png"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("report")
    original = (ROOT / "models" / "2023-swift.yaml").read_text()
    assert NEEDLE in original
    model = folder / "broken-2023.yaml"
    model.write_text(original.replace(NEEDLE, BROKEN))
    fuzz = folder / "fuzz.json"
    with fuzz.open("w") as out:
        subprocess.run(
            [BINARY, "fuzz", "--model", "models/2023-swift.yaml", "--runs", "200", "--seed", "7", "--format", "json",
             "--no-save"], cwd=ROOT, stdout=out, check=True)
    html = folder / "report.html"
    result = subprocess.run(
        [BINARY, "report", "--html", str(html), str(model), "--fuzz", str(fuzz), "--platform", "swift"],
        cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "4 violated" in result.stdout
    return html


@pytest.fixture(scope="module")
def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,1600"]:
        options.add_argument(argument)
    service = webdriver.ChromeService(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    yield driver
    driver.quit()


def test_the_page_needs_no_network(page):
    text = page.read_text()
    assert "<script src" not in text and "<link" not in text
    assert "@import" not in text and "url(" not in text
    for attribute in ("src=", "href="):
        for piece in text.split(attribute)[1:]:
            value = piece[1:].split(piece[0])[0] if piece[:1] in "\"'" else piece
            assert value.startswith("#") or "www.w3.org" in value, f"{attribute}{value[:60]}"


def test_verdict_rows(page, browser):
    browser.get(page.as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, "table.verdicts tr.verdict")
    assert len(rows) == 20
    verdicts = {row.get_attribute("data-property"): row.get_attribute("data-verdict") for row in rows}
    assert verdicts["failAuthenticationRestarts"] == "violated"
    assert verdicts["terminates"] == "violated"
    assert verdicts["noFactorSkipped"] == "holds"
    assert sum(v == "violated" for v in verdicts.values()) == 4
    # Each violated row links to its counterexample.
    link = browser.find_element(By.CSS_SELECTOR, 'tr[data-property="terminates"] a')
    target = link.get_attribute("href").split("#")[1]
    assert browser.find_element(By.ID, target).tag_name == "h3"


def test_the_counterexample_path_is_highlighted(page, browser):
    browser.get(page.as_uri())
    trace = browser.find_elements(By.CSS_SELECTOR, ".trace")[0]
    nodes = trace.find_elements(By.CSS_SELECTOR, "svg g.node.path")
    titles = {n.find_element(By.TAG_NAME, "title").get_attribute("textContent") for n in nodes}
    assert len(nodes) == 2, titles
    edges = trace.find_elements(By.CSS_SELECTOR, "svg g.edge.path")
    assert len(edges) == 2
    # Calls are numbered as the terminal trace numbers them, the loop marker between them.
    assert [r.get_attribute("value") for r in trace.find_elements(By.CSS_SELECTOR, "ol.calls > li[data-call]")] == [
        "1", "2", "3"]
    # Every call names an edge of its diagram.
    for row in trace.find_elements(By.CSS_SELECTOR, "ol.calls > li[data-call]"):
        edge = browser.find_element(By.ID, row.get_attribute("data-edge"))
        assert "path" in edge.get_attribute("class")


def test_stepping_through_the_calls(page, browser):
    browser.get(page.as_uri())
    trace = browser.find_elements(By.CSS_SELECTOR, ".trace")[0]
    previous, following = trace.find_element(By.CSS_SELECTOR, "button.prev"), trace.find_element(By.CSS_SELECTOR, "button.next")
    now = trace.find_element(By.CSS_SELECTOR, ".now")
    assert now.text.startswith("All 3 calls")
    assert not previous.is_enabled()
    following.click()
    assert now.text.startswith("Call 1 of 3: signIn(correctPassword)")
    rows = trace.find_elements(By.CSS_SELECTOR, "ol.calls > li[data-call]")
    assert rows[0].get_attribute("aria-current") == "step"
    current = trace.find_elements(By.CSS_SELECTOR, "svg .current")
    assert {c.get_attribute("id") for c in current} == {
        rows[0].get_attribute("data-edge"), rows[0].get_attribute("data-from"), rows[0].get_attribute("data-to")}
    following.click()
    assert now.text.startswith("Call 2 of 3: confirmSignIn(failingAnswer)")
    assert rows[0].get_attribute("aria-current") is None and rows[1].get_attribute("aria-current") == "step"
    # The keyboard: arrow keys inside the trace step too.
    following.send_keys(Keys.ARROW_RIGHT)
    assert now.text.startswith("Call 3 of 3")
    assert not following.is_enabled()
    previous.send_keys(Keys.ARROW_LEFT)
    assert now.text.startswith("Call 2 of 3")
    SCREENSHOT.parent.mkdir(exist_ok=True)
    browser.find_element(By.CSS_SELECTOR, "h3[id$='-p0']").location_once_scrolled_into_view
    browser.save_screenshot(str(SCREENSHOT))
    assert SCREENSHOT.stat().st_size > 10_000


def test_the_fuzz_section(page, browser):
    browser.get(page.as_uri())
    coverage = browser.find_element(By.CSS_SELECTOR, "section.fuzz td.coverage").text
    covered, _, total = coverage.split()[:3]
    assert 0 < int(covered) <= int(total)


def test_accessibility(page, browser):
    browser.get(page.as_uri())
    axe = Axe(browser)
    axe.inject()
    results = axe.run()
    problems = [f"{v['id']}: {v['help']} ({len(v['nodes'])} elements)" for v in results["violations"]]
    assert problems == [], "\n".join(problems)
    passed = {rule["id"] for rule in results["passes"]}
    assert {"document-title", "html-has-lang", "button-name", "color-contrast"} <= passed, sorted(passed)


def test_the_accessibility_check_can_fail(page, browser):
    browser.get(page.as_uri())
    browser.execute_script(
        "var i = document.createElement('img'); i.src = '#'; document.querySelector('main').appendChild(i);"
        "document.querySelector('button.next').textContent = '';")
    axe = Axe(browser)
    axe.inject()
    found = {v["id"] for v in axe.run()["violations"]}
    assert {"image-alt", "button-name"} <= found, found
