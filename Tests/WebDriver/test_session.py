"""New session, capabilities, quit, and what a quit session answers."""
import unittest

from selenium.common.exceptions import InvalidSessionIdException, SessionNotCreatedException

import support


class SessionTests(unittest.TestCase):
    def test_new_session_reports_capabilities_and_quits(self):
        driver = support.new_driver()
        try:
            self.assertTrue(driver.session_id)
            expected = {"headway": "headway", "webkit": "MiniBrowser", "chromium": "chrome"}[support.BROWSER]
            self.assertEqual(driver.capabilities["browserName"].lower(), expected.lower())
            self.assertIn("timeouts", driver.capabilities)
            self.assertEqual(driver.timeouts.page_load, 300)
            driver.get(support.page_server() + "/title.html")
            self.assertEqual(driver.title, "Title page")
        finally:
            driver.quit()

    def test_commands_after_quit_fail_with_invalid_session_id(self):
        driver = support.new_driver()
        driver.quit()
        with self.assertRaises(InvalidSessionIdException):
            driver.get(support.page_server() + "/title.html")
        with self.assertRaises(InvalidSessionIdException):
            _ = driver.title

    def test_timeouts_round_trip(self):
        driver = support.new_driver()
        try:
            driver.set_script_timeout(7)
            driver.set_page_load_timeout(11)
            driver.implicitly_wait(2)
            self.assertEqual(driver.timeouts.script, 7)
            self.assertEqual(driver.timeouts.page_load, 11)
            self.assertEqual(driver.timeouts.implicit_wait, 2)
        finally:
            driver.quit()

    def test_unmatchable_capabilities_fail(self):
        with self.assertRaises(SessionNotCreatedException):
            support.new_driver(browserName="no-such-browser").quit()


if __name__ == "__main__":
    unittest.main()
