"""The table page for everyone, in headless Chromium: an axe-core audit on a phone and a TV (the demo games, with a live
auction and a deal shown), every control from the keyboard, a screen reader's reading order, the system's text size
and reduced motion.

axe-core is pinned in package.json and installed by ``npm ci`` (``.ci/run`` runs it); WebDriver injects it (the page's
Content-Security-Policy allows only the page's own script, but a WebDriver script runs outside it). Never skipped: a
missing axe-core is a failure, as a missing browser is.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from runtime.script_shell import CoreBackend
from runtime.ledger import SqliteLedger
from tests.web.support import QUIET, as_device, until
from web import serve_in_background
from web.chromium import chromium
from web.demo import play_demo, play_house_rules_demo
from web.screenshots import wait_for_state

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PHONE, TV = (390, 844), (1920, 1000)
#: WCAG 2.2 A and AA, and axe's best practices.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
#: "Needs review" results that fail too: axe could not tell whether they pass, so neither could we.
REVIEW = ("aria-prohibited-attr", "color-contrast")
RUN = """
const done = arguments[arguments.length - 1];
const brief = (v) => ({id: v.id, impact: v.impact, help: v.help,
  nodes: v.nodes.map(n => [n.target.join(' '), (n.any[0] || n.all[0] || n.none[0] || {}).message || ''])});
axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}})
  .then(r => done({violations: r.violations.map(brief), incomplete: r.incomplete.map(brief)}))
  .catch(e => done({error: String(e)}));
"""


def audit(driver) -> dict:
    """axe-core's results for the page now: ``{"violations": [...], "incomplete": [...]}``, each rule brief."""
    if not AXE.exists():
        raise AssertionError(f"axe-core is not installed ({AXE}): run `npm ci` in the repository (.ci/run does)")
    driver.execute_script(AXE.read_text(encoding="utf-8"))
    driver.set_script_timeout(60)
    result = driver.execute_async_script(RUN, TAGS)
    assert "error" not in result, result
    return result


def problems(result: dict) -> list[dict]:
    """What fails the page: a serious or critical violation, or one of :data:`REVIEW` axe could not decide."""
    return ([v for v in result["violations"] if v["impact"] in ("serious", "critical")]
            + [v for v in result["incomplete"] if v["id"] in REVIEW])


@pytest.fixture(scope="module")
def browser():
    with chromium(*PHONE) as driver:
        yield driver


@pytest.fixture
def demo(tmp_path):
    """The demo game served beside its unit: keys pressed on ``unit`` show on the page, live views too."""
    with SqliteLedger(tmp_path / "demo.db") as ledger:
        play_demo(ledger)
        with serve_in_background(ledger, host="127.0.0.1", port=0) as page:
            unit = CoreBackend(ledger)
            unit.shell.on_effect = page.on_effect
            yield unit, page


def press(unit, *keys: str) -> None:
    for key in keys:
        unit.press(key)


def open_auction(unit) -> str:
    press(unit, "FN", "0", "1", "GO")  # Mediterranean Avenue, still the bank's
    unit.insert("right", "Bob")
    press(unit, "1", "0", "0", "K")
    unit.remove("right")
    return "live-view"


def open_deal(unit) -> str:
    unit.insert("left", "Alice")
    unit.insert("right", "Bob")
    press(unit, "FN", "GO", "7", "FN", "3", "9", "GO", "2", "M")  # Boardwalk from Alice, 2M from Bob
    return "deal-view"


def load(browser, url: str, size: tuple[int, int]) -> None:
    as_device(browser, *size)
    browser.get(url)
    wait_for_state(browser)
    browser.execute_script(QUIET)


@pytest.mark.parametrize("scene", ["demo", "auction", "deal", "house rules"])
def test_axe_finds_nothing_serious_on_a_phone_and_a_tv(browser, demo, tmp_path, scene):
    unit, page = demo
    view = {"auction": open_auction, "deal": open_deal}.get(scene, lambda unit: None)(unit)
    with ExitStack() as stack:
        url = page.url
        if scene == "house rules":  # the Free Parking pot and the time left in the header
            ledger = stack.enter_context(SqliteLedger(tmp_path / "house.db"))
            play_house_rules_demo(ledger)
            url = stack.enter_context(serve_in_background(ledger, host="127.0.0.1", port=0)).url
        stack.callback(as_device, browser, *PHONE)
        for size in (PHONE, TV):
            load(browser, url, size)
            if view:  # the unit's live view, above the table
                until(lambda: browser.execute_script(f"return !document.getElementById('{view}').hidden"), 3.0, view)
            if scene == "house rules":
                browser.find_element("id", "speak").click()  # the toggle's pressed look audited too
            found = problems(audit(browser))
            assert found == [], f"{scene} at {size[0]} px: {found}"


FOCUSABLE = """return [...document.querySelectorAll(
  "a[href], button:not([disabled]), input:not([disabled]), select, textarea, summary, [tabindex]:not([tabindex='-1'])")]
  .filter(n => n.getClientRects().length).map(n => n.id);"""


def test_every_control_works_from_the_keyboard_with_a_visible_focus_ring(browser, demo):
    unit, page = demo
    load(browser, page.url, PHONE)
    controls = browser.execute_script(FOCUSABLE)
    assert "speak" in controls and all(controls)
    reached = []
    for _ in controls:
        ActionChains(browser).send_keys(Keys.TAB).perform()
        reached.append(browser.execute_script("return document.activeElement.id"))
    assert reached == controls  # each in turn, in the page's order
    ring = browser.execute_script(
        "const s = getComputedStyle(document.activeElement); return [s.outlineStyle, parseFloat(s.outlineWidth)];")
    assert ring[0] == "solid" and ring[1] >= 2  # focus that can be seen (3 px, the page's yellow)

    browser.execute_script("document.getElementById('speak').focus()")
    state = "return [document.getElementById('speak').getAttribute('aria-pressed'), localStorage.getItem('banker.readAloud')]"
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    assert browser.execute_script(state) == ["true", "on"]
    ActionChains(browser).send_keys(Keys.SPACE).perform()
    assert browser.execute_script(state) == ["false", "off"]


READING = """
const nodes = arguments[0], byId = new Map(nodes.map(n => [n.nodeId, n])), out = [];
(function walk(n) {
  if (!n) return;
  if (!n.ignored && n.name && n.name.value && ['StaticText', 'heading', 'region', 'image', 'img'].includes(n.role.value))
    out.push([n.role.value, n.name.value]);
  (n.childIds || []).forEach(id => walk(byId.get(id)));
})(nodes[0]);
return out;
"""


def reading(browser) -> list[tuple[str, str]]:
    """What a screen reader reads, in its order: Chromium's accessibility tree, depth first (role, name)."""
    tree = browser.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    return [tuple(x) for x in browser.execute_script(READING, tree)]


def test_a_screen_reader_reads_the_game_line_the_balances_the_last_transaction_then_the_journal(browser, demo):
    unit, page = demo
    open_auction(unit)
    load(browser, page.url, PHONE)
    until(lambda: browser.execute_script("return !document.getElementById('live-view').hidden"), 3.0, "the auction")
    read = reading(browser)
    texts = [name for _, name in read]

    def at(role: str, name: str) -> int:
        return next(i for i, x in enumerate(read) if x[0] == role and x[1].lower() == name.lower())

    order = [texts.index("Game 1 · 21 transactions"), at("region", "Auction"), at("heading", "Balances"),
             texts.index("Alice"), texts.index("7,500,000 dollars"), at("StaticText", "Last"),
             texts.index(" rent 120K (Vermont Avenue)"), at("heading", "Journal")]
    assert order == sorted(order)
    headings = [name.lower() for role, name in read if role == "heading"]
    assert [h for h in headings if h in ("balances", "deeds", "bank", "standings", "worth over the game", "journal")] == [
        "balances", "deeds", "bank", "standings", "worth over the game", "journal"]
    # each amount is read as dollars, never the short form a voice would spell out ("seven point five M")
    assert "7.5M" not in texts and "17,000,000 dollars" in texts and "30 of 32 houses left" in texts
    chart = next(name for role, name in read if role in ("image", "img"))
    assert chart.startswith("Total worth of each player over the game Cash, deeds and buildings after each of 21")
    assert "18M" not in texts  # the axis's values are the chart's picture; its description says the figures
    assert "Boardwalk, 1 house" in texts and "Electric Company, mortgaged" in texts


def test_the_page_follows_the_systems_text_size_and_still_fits_a_phone(browser, demo):
    unit, page = demo
    size = "return [getComputedStyle(document.documentElement).fontSize, document.documentElement.scrollWidth," \
           " parseFloat(getComputedStyle(document.querySelector('.balances .amount')).fontSize)]"
    load(browser, page.url, PHONE)
    normal = browser.execute_script(size)
    assert normal[:2] == ["16px", 390]
    with chromium(*PHONE, text_size=24) as large:  # Chromium's "Font size" setting at 24
        load(large, page.url, PHONE)
        root, width, amount = large.execute_script(size)
        assert root == "24px" and width == 390  # larger text, no sideways scrolling
        assert amount >= normal[2] * 1.25  # the balances too (1.6rem: 38.4 px, from 29.6)
        load(large, page.url, TV)
        assert large.execute_script(size)[:2] == ["24px", 1920]


def test_reduced_motion_turns_the_balance_highlight_into_a_plain_change(browser, demo):
    unit, page = demo
    fade = "return getComputedStyle(document.querySelector('.balances .amount')).transitionDuration"
    load(browser, page.url, PHONE)
    try:
        assert browser.execute_script(fade) == "0.6s"
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        assert browser.execute_script("return matchMedia('(prefers-reduced-motion: reduce)').matches")
        assert browser.execute_script(fade) == "0s"
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
