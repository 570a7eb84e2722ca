"""ActionChains: pointer moves and clicks, keys, drag and drop (wheel scrolls: test_scroll.py)."""
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import support


class ActionTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("actions.html")

    def find(self, id):
        return self.driver.find_element(By.ID, id)

    def log(self):
        return self.find("log").text

    def test_move_to_element(self):
        ActionChains(self.driver).move_to_element(self.find("hover")).perform()
        self.assertIn("over;", self.log())

    def test_click(self):
        ActionChains(self.driver).click(self.find("clickme")).perform()
        # Only the click part is exact: Selenium's move has a duration, and the spec interpolates a
        # move over it, so the pointer may pass over #hover on its way and log "over;" first.
        log = self.log()
        self.assertTrue(log.endswith("click:true;"), log)
        self.assertEqual(log.count("click:"), 1, log)

    def test_double_click(self):
        ActionChains(self.driver).double_click(self.find("dbl")).perform()
        self.assertIn("dbl;", self.log())

    def test_context_click(self):
        ActionChains(self.driver).context_click(self.find("ctx")).perform()
        self.assertIn("ctx:2;", self.log())

    def test_key_down_and_up(self):
        keys = self.find("keys")
        keys.click()
        ActionChains(self.driver).key_down(Keys.SHIFT).send_keys("x").key_up(Keys.SHIFT).send_keys("y").perform()
        self.assertEqual(keys.get_property("value"), "Xy")
        self.assertIn("down:Shift;", self.log())
        self.assertIn("up:Shift;", self.log())

    def test_drag_and_drop(self):
        ActionChains(self.driver).drag_and_drop(self.find("drag"), self.find("drop")).perform()
        self.assertIn("dropped;", self.log())


if __name__ == "__main__":
    unittest.main()
