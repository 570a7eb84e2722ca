"""Element click, clear and send_keys, as a user types into a form."""
import unittest

from selenium.common.exceptions import ElementNotInteractableException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import support


class InputTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("form.html")

    def find(self, id):
        return self.driver.find_element(By.ID, id)

    def log(self):
        return self.find("log").text

    def test_click_is_trusted(self):
        self.find("btn").click()
        self.assertEqual(self.log(), "click:true;")

    def test_clear_and_send_keys_into_input(self):
        text = self.find("text")
        text.clear()
        self.assertEqual(text.get_property("value"), "")
        text.send_keys("hello world")
        self.assertEqual(text.get_property("value"), "hello world")
        text.send_keys("!")
        self.assertEqual(text.get_property("value"), "hello world!")

    def test_send_keys_into_textarea(self):
        area = self.find("area")
        area.clear()
        area.send_keys("line one", Keys.ENTER, "line two")
        self.assertEqual(area.get_property("value"), "line one\nline two")

    def test_enter_submits_the_form(self):
        self.find("text").send_keys(Keys.ENTER)
        self.assertEqual(self.log(), "submit;")

    def test_shift_makes_capitals(self):
        keys = self.find("keys")
        keys.send_keys(Keys.SHIFT, "ab", Keys.SHIFT, "c")
        self.assertEqual(keys.get_property("value"), "ABc")
        self.assertIn("down:A:true;", self.log())
        self.assertIn("down:c:false;", self.log())

    def test_keys_after_a_button_held_on_a_select(self):
        self.open("state.html")
        select = self.find("sel")
        ActionChains(self.driver).click_and_hold(select).perform()
        ActionChains(self.driver).release().perform()
        self.assertEqual(select.get_property("value"), "b")
        self.open("form.html")
        keys = self.find("keys")
        keys.send_keys(Keys.SHIFT, "ab", Keys.SHIFT, "c Hello")
        self.assertEqual(keys.get_property("value"), "ABc Hello")

    def test_hidden_input_is_not_interactable(self):
        with self.assertRaises(ElementNotInteractableException):
            self.find("invisible").send_keys("x")
        with self.assertRaises(ElementNotInteractableException):
            self.find("invisible").click()


if __name__ == "__main__":
    unittest.main()
