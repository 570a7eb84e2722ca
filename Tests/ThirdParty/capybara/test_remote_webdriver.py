"""Registers capybara-py's suite (capybara/tests/session) against a remote W3C WebDriver server.

Environment (set by scripts/third-party-suite):
  CAPY_WEBDRIVER_URL   the server, e.g. http://127.0.0.1:4444
  CAPY_CAPABILITIES    JSON object of capabilities, default {}
"""
import json
import os

import capybara
from capybara.tests.suite import DriverSuite

URL = os.environ.get("CAPY_WEBDRIVER_URL", "http://127.0.0.1:4444")
CAPABILITIES = json.loads(os.environ.get("CAPY_CAPABILITIES") or "{}")


@capybara.register_driver("remote")
def init_remote_driver(app):
    from capybara.selenium.driver import Driver
    from selenium.webdriver.remote.file_detector import UselessFileDetector

    # The server runs on this machine, so file paths are sent as they are
    # (LocalFileDetector would try Selenium Grid's /se/file upload).
    return Driver(app, browser="remote", desired_capabilities=CAPABILITIES,
                  command_executor=URL, file_detector=UselessFileDetector())


# No capybara feature is declared missing: every test runs.
RemoteDriverSuite = DriverSuite("remote", skip=[])
