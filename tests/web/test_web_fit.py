"""The table page's words stay in their boxes in every language, on a phone and on a TV (issue 30: "Gefängniskarten"
ran out of the bank's box at TV size): measured in headless Chromium on a game with every part of the page shown."""

from __future__ import annotations

from pprint import pformat

import pytest

from banker.text.i18n import LANGUAGES
from banker.journal.records import Setting
from banker.rules import draw_jail_card
from runtime.script_shell import CoreBackend
from runtime.ledger import SqliteLedger
from tests.web.support import PHONE, as_device, until
from web import serve_in_background
from web.demo import play_demo, play_house_rules_demo
from web.screenshots import TV, wait_for_state

#: Every shown element whose content runs out of its own box or whose box runs out of its parent's (sideways), and
#: every text whose lines run out of their element: [what, its text, by how many px]. The screen-reader text (.sr), the
#: hidden parts (or 1 px ones: for a screen reader) and the chart's drawing are left out; a box may end within a pixel of its parent's edge.
OVERFLOWS = """
const tiny = (n) => { const r = n.getBoundingClientRect(); return r.width <= 1 && r.height <= 1; };  // for the ear only
const unseen = (n) => { for (; n; n = n.parentElement) if (tiny(n)) return true; return false; };
const out = [], shown = (n) => !n.closest('[hidden], .sr, svg, script, style, noscript') && n.getClientRects().length && !unseen(n);
const name = (n) => n.tagName.toLowerCase() + (n.id ? '#' + n.id : '') + (n.className && n.className.baseVal === undefined
  ? '.' + n.className.trim().split(/\\s+/).join('.') : '');
const check = (n, inner, outer, why) => {
  const by = Math.max(outer.left - inner.left, inner.right - outer.right);
  if (by > 1) out.push([name(n) + ' ' + why, n.textContent.trim().slice(0, 60), Math.round(by)]);
};
for (const n of document.body.querySelectorAll('*')) {
  if (!shown(n)) continue;
  const box = n.getBoundingClientRect();
  if (getComputedStyle(n).display !== 'inline' && n.scrollWidth > n.clientWidth + 1)
    out.push([name(n) + ' scrolls', n.textContent.trim().slice(0, 60), n.scrollWidth - n.clientWidth]);
  if (n.parentElement !== document.body) check(n, box, n.parentElement.getBoundingClientRect(), 'leaves its parent');
  for (const t of n.childNodes) {
    if (t.nodeType !== Node.TEXT_NODE || !t.textContent.trim()) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    for (const line of range.getClientRects()) check(n, line, box, 'has text out of it');
  }
}
if (document.documentElement.scrollWidth > innerWidth) out.push(['the page scrolls sideways', '', document.documentElement.scrollWidth - innerWidth]);
return out;
"""


def _busy_game(ledger) -> CoreBackend:
    """The demo game with both jail cards held by Bob and a whole deal being built on the unit (Alice gives 2M)."""
    play_demo(ledger)
    for name in ("Bob", "Bob"):
        game = ledger.game()
        ledger.post(draw_jail_card(game, player=game.card_by_name(name).id).to_transaction())
    return CoreBackend(ledger)


def _open_a_deal(unit: CoreBackend) -> None:
    unit.insert("left", "Alice")
    unit.insert("right", "Bob")
    for key in ("FN", "GO", "7", "2", "M"):
        unit.press(key)


@pytest.mark.parametrize("game", ["demo", "house rules"])
def test_every_word_stays_in_its_box_in_every_language_on_a_phone_and_a_tv(browser, tmp_path, game):
    with SqliteLedger(tmp_path / "ledger.db") as ledger:
        if game == "demo":
            unit = _busy_game(ledger)
        else:
            play_house_rules_demo(ledger)
            unit = CoreBackend(ledger)
        with serve_in_background(ledger, host="127.0.0.1", port=0) as page:
            unit.shell.on_effect = page.on_effect
            if game == "demo":
                _open_a_deal(unit)
            found = {}
            for code in LANGUAGES:
                ledger.commit(Setting("language", code))
                for size in (PHONE, TV):
                    as_device(browser, *size)
                    browser.get(page.url)
                    wait_for_state(browser)
                    until(lambda code=code: browser.execute_script("return document.documentElement.lang") == code,
                          3.0, code)
                    if game == "demo":
                        until(lambda: browser.execute_script("return !document.getElementById('deal-view').hidden"),
                              3.0, "the deal on the page")
                        assert "2M" in browser.find_element("id", "deal-view").text
                    overflows = browser.execute_script(OVERFLOWS)
                    if overflows:
                        found[code, size] = overflows
            assert not found, pformat(found, width=160)
