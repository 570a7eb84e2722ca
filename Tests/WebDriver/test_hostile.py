"""Pages that replace a global before the test runs: every element command answers as on a plain page."""
import unittest

import json
import urllib.request

from selenium.webdriver.common.by import By

import pages
import support

BODY = """<!doctype html><title>Hostile</title>
<h1 id=title>Hello <em>world</em></h1><p id=para>Some <a id=link href="#top">Link text</a></p>
<input id=field value=start> <input type=checkbox id=box checked>
<select id=sel><option id=o1>One</option><option id=o2 selected>Two</option></select>
<button id=btn onclick="this.dataset.clicked = 'yes'">Press</button><div id=hidden style="display:none">x</div>
<div id=host></div><script>
document.getElementById('host').attachShadow({mode: 'open'}).innerHTML = '<b id=deep>deep</b>';
</script>"""

# Each replaces what a command's script might use.
HOSTILE = {
    "symbol_for": "Symbol.for = () => { throw 1; };",
    "define_property": "Object.defineProperty = () => { throw 2; };",
    "object_keys": "Object.keys = () => { throw 3; };",
    "array_methods": "for (const m of ['map', 'filter', 'push', 'includes', 'join', 'forEach']) "
                     "Array.prototype[m] = function () { throw 4; }; Array.from = () => { throw 4; };",
    "json": "JSON.stringify = () => '\"'; JSON.parse = () => { throw 5; };",
    "promise": "window.Promise = function () { throw 6; };",
    "then_getter": "Object.defineProperty(Object.prototype, 'then', {get() { return undefined; }});",
    "rects": "Element.prototype.getBoundingClientRect = () => { throw 8; }; "
             "Element.prototype.scrollIntoView = () => { throw 8; };",
    "query": "document.querySelector = () => { throw 9; }; document.querySelectorAll = () => { throw 9; };",
    "styles": "window.getComputedStyle = () => { throw 10; };",
    "observer": "window.MutationObserver = function () { throw 11; };",
    # Elements whose id or name is one of Headway's globals: the window's named properties find them
    # in every world where no own property of that name shadows them.
    "named_globals": "for (const n of ['__headwayPristine', 'headwayPage']) { const f = document.createElement('form');"
                     " f.name = n; document.body.append(f); const d = document.createElement('div'); d.id = n;"
                     " document.body.append(d); }",
}

# WebKitWebDriver's own scripts run in the page's world, which these break (docs/webdriver-reference.md).
REFERENCE_BREAKS = {"array_methods", "json", "promise", "rects", "query", "styles"}

for name, script in HOSTILE.items():
    pages.PAGES[f"/hostile_{name}.html"] = BODY + f"<script>{script}</script>"
pages.PAGES["/hostile_plain.html"] = BODY


def displayed(element):
    """Is Element Displayed itself (Selenium's is_displayed runs its own script in the page's world)."""
    url = f"{support.URL}/session/{element.parent.session_id}/element/{element.id}/displayed"
    with urllib.request.urlopen(url, timeout=60) as answer:
        return json.load(answer)["value"]


class HostilePageTests(support.SessionCase):
    # Selenium's get_attribute and is_displayed run Selenium's own scripts in the page's world, which
    # such a page breaks in every browser: these use the commands (get_dom_attribute, displayed()).
    def answers(self, name):
        d = self.driver
        self.open(f"hostile_{name}.html")
        find = d.find_element
        out = {
            "css": find(By.CSS_SELECTOR, "#para a").get_dom_attribute("id"),
            "xpath": len(d.find_elements(By.XPATH, "//p")),
            "link": find(By.LINK_TEXT, "Link text").tag_name,
            "text": find(By.ID, "title").text,
            "hidden text": find(By.ID, "hidden").text,
            "attribute": find(By.ID, "field").get_dom_attribute("value"),
            "property": find(By.ID, "box").get_property("checked"),
            "css value": find(By.ID, "hidden").value_of_css_property("display"),
            "rect": sorted(find(By.ID, "title").rect),
            "enabled": find(By.ID, "field").is_enabled(),
            "selected": find(By.ID, "o2").is_selected(),
            "displayed": [displayed(find(By.ID, "title")), displayed(find(By.ID, "hidden"))],
            "shadow": find(By.ID, "host").shadow_root.find_element(By.CSS_SELECTOR, "#deep").text,
            "script": d.execute_script("return 2"),
            "script element": d.execute_script("return document.getElementById('para')").get_dom_attribute("id"),
            "script argument": d.execute_script("return arguments[0].id", find(By.ID, "title")),
            "async script": d.execute_async_script("arguments[0](3)"),
        }
        find(By.ID, "btn").click()
        out["click"] = find(By.ID, "btn").get_dom_attribute("data-clicked")
        field = find(By.ID, "field")
        field.clear()
        field.send_keys("typed")
        out["clear and keys"] = field.get_property("value")
        find(By.ID, "o1").click()
        out["option"] = find(By.ID, "o1").is_selected()
        out["screenshot"] = len(find(By.ID, "title").screenshot_as_png) > 100
        return out

    def test_every_command_answers_as_on_a_plain_page(self):
        expected = self.answers("plain")
        for name in HOSTILE:
            if support.BROWSER == "webkit" and name in REFERENCE_BREAKS:
                continue
            with self.subTest(replaced=name):
                self.assertEqual(self.answers(name), expected)


if __name__ == "__main__":
    unittest.main()
