"""Cookies: add, get, delete one, delete all."""
import unittest

import support


class CookieTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("title.html")
        self.driver.delete_all_cookies()

    def test_add_and_get(self):
        self.driver.add_cookie({"name": "flavour", "value": "oat"})
        cookie = self.driver.get_cookie("flavour")
        self.assertEqual(cookie["value"], "oat")
        self.assertEqual(cookie["path"], "/")
        self.assertIn("127.0.0.1", cookie["domain"])
        self.assertEqual(self.driver.execute_script("return document.cookie"), "flavour=oat")
        self.assertEqual([c["name"] for c in self.driver.get_cookies()], ["flavour"])

    def test_cookie_set_by_the_page_is_seen(self):
        self.driver.execute_script("document.cookie = 'page=made; path=/'")
        self.assertEqual(self.driver.get_cookie("page")["value"], "made")

    def test_cookie_attributes(self):
        self.driver.add_cookie({"name": "h", "value": "1", "httpOnly": True, "expiry": 2000000000})
        cookie = self.driver.get_cookie("h")
        self.assertTrue(cookie["httpOnly"])
        self.assertEqual(cookie["expiry"], 2000000000)
        # httpOnly cookies are invisible to the page.
        self.assertEqual(self.driver.execute_script("return document.cookie"), "")

    @support.webkit_differs("an expiry after 2038 comes back wrapped to a negative 32-bit number")
    def test_expiry_after_2038(self):
        self.driver.add_cookie({"name": "late", "value": "1", "expiry": 4102444800})
        self.assertEqual(self.driver.get_cookie("late")["expiry"], 4102444800)

    def test_delete_one(self):
        self.driver.add_cookie({"name": "a", "value": "1"})
        self.driver.add_cookie({"name": "b", "value": "2"})
        self.driver.delete_cookie("a")
        self.assertIsNone(self.driver.get_cookie("a"))
        self.assertEqual([c["name"] for c in self.driver.get_cookies()], ["b"])

    def test_delete_all(self):
        self.driver.add_cookie({"name": "a", "value": "1"})
        self.driver.add_cookie({"name": "b", "value": "2"})
        self.driver.delete_all_cookies()
        self.assertEqual(self.driver.get_cookies(), [])
        self.assertEqual(self.driver.execute_script("return document.cookie"), "")

    def test_cookie_survives_a_reload(self):
        self.driver.add_cookie({"name": "sent", "value": "yes"})
        self.driver.refresh()
        self.assertEqual(self.driver.execute_script("return document.cookie"), "sent=yes")


if __name__ == "__main__":
    unittest.main()
