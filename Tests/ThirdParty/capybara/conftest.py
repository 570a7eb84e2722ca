"""Harness for capybara-py 0.1.6's own session suite, run unchanged (scripts/third-party-suite).

CAPY_SELECT names a file of test ids, one a line, as `test_node.py::TestNodeDisabled::test_is_boolean`
(the node id below capybara/tests/session); only those run, in the suite's order.
"""
import collections
import collections.abc
import os

# capybara-py 0.1.6 does `from collections import Hashable`, which Python 3.10 removed.
for _name in ("Hashable", "Iterable", "Mapping", "MutableMapping", "Sequence", "Callable"):
    if not hasattr(collections, _name):
        setattr(collections, _name, getattr(collections.abc, _name))


def _quiet_client():
    """selenium 4.2's find_elements_by_* and urllib3 1.26's getheader warn that they are deprecated, and
    capybara's tests that expect exactly one warning (`pytest.warns(None)`) count those too: the same
    calls, without the warning."""
    import urllib3.response
    from selenium.webdriver.common.by import By
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement

    for cls in (WebDriver, WebElement):
        cls.find_elements_by_xpath = lambda self, xpath: self.find_elements(By.XPATH, xpath)
        cls.find_elements_by_css_selector = lambda self, css: self.find_elements(By.CSS_SELECTOR, css)
    urllib3.response.HTTPResponse.getheader = lambda self, name, default=None: self.headers.get(name, default)


_quiet_client()

# capybara's plugin collects DriverSuite objects and grafts capybara/tests/session under them.
# No pytest.ini on purpose: an ini file sets confcutdir, which hides capybara/tests/conftest.py.
pytest_plugins = ["capybara.tests.pytest_plugin"]


def _test_id(item):
    """The item's node id below capybara/tests/session: its file's name, then class and test."""
    parts = [part for part in item.nodeid.split("::") if part != "()"]  # pytest 3's instance level
    files = [i for i, part in enumerate(parts) if part.endswith(".py")]
    return "::".join([os.path.basename(parts[files[-1]])] + parts[files[-1] + 1:]) if files else item.nodeid


def pytest_collection_modifyitems(session, config, items):
    # The grafted items have a Config of their own, on which pytest_configure never ran: copy
    # pytest-timeout's settings from the main Config so --timeout applies to them.
    for item in items:
        if item.config is config:
            continue
        for attr in dir(config):
            if attr.startswith("_env_timeout") and not hasattr(item.config, attr):
                setattr(item.config, attr, getattr(config, attr))
    select = os.environ.get("CAPY_SELECT")
    if not select:
        return
    with open(select) as f:
        wanted = {line.strip() for line in f if line.strip()}
    kept = [item for item in items if _test_id(item) in wanted]
    dropped = [item for item in items if _test_id(item) not in wanted]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = kept
