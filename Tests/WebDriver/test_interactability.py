"""Element click and clear on hidden, covered and disabled elements; selecting an option."""
import unittest

from selenium.common.exceptions import (ElementClickInterceptedException, ElementNotInteractableException,
                                        InvalidElementStateException)
from selenium.webdriver.common.by import By

import support


class InteractabilityTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("interact.html")

    def find(self, id):
        return self.driver.find_element(By.ID, id)

    def log(self):
        return self.find("log").text

    def test_what_is_not_displayed_is_not_interactable(self):
        for id in ("invisible", "hiddenbox", "hiddenopt"):
            with self.subTest(id=id), self.assertRaises(ElementNotInteractableException):
                self.find(id).click()
        self.assertEqual(self.log(), "")

    def test_a_covered_element_intercepts_the_click(self):
        with self.assertRaises(ElementClickInterceptedException):
            self.find("covered").click()

    def test_a_transparent_element_takes_the_click(self):
        self.find("transparent").click()
        self.find("clearbox").click()
        self.assertEqual(self.log(), "transparent;")
        self.assertTrue(self.find("clearbox").is_selected())

    def test_an_option_is_selected_with_input_and_change(self):
        self.find("o2").click()
        self.assertEqual(self.find("sel").get_property("value"), "b")
        self.assertIn("sel:input;sel:change;", self.log())
        self.find("o3").click()
        self.assertEqual(self.find("sel").get_property("value"), "b", "a disabled option is not selected")

    @support.webkit_differs("selecting an option fires no mouse or focus events, and none when it is selected")
    def test_an_option_click_fires_the_specs_events(self):
        self.find("o2").click()
        self.find("o2").click()
        self.assertEqual(self.log(), "sel:mouseover;sel:mousedown;sel:focus;sel:input;sel:change;sel:mouseup;"
                                     "sel:click;sel:mouseover;sel:mousedown;sel:input;sel:mouseup;sel:click;")

    def test_clear_needs_an_editable_interactable_element(self):
        for id in ("disabled", "readonly", "sel"):
            with self.subTest(id=id), self.assertRaises(InvalidElementStateException):
                self.find(id).clear()
        with self.assertRaises(ElementNotInteractableException):
            self.find("invisiblefield").clear()

    def test_clear_focuses_changes_and_blurs(self):
        self.find("field").clear()
        self.assertEqual(self.find("field").get_property("value"), "")
        self.assertTrue(self.log().startswith("field:focus;"))
        self.assertTrue(self.log().endswith("field:change;field:blur;"))
        self.find("field").clear()
        self.assertEqual(self.log().count("field:focus"), 1, "an empty field is left alone")

    @support.webkit_differs("clearing a field fires no input event")
    def test_clear_fires_input(self):
        self.find("field").clear()
        self.assertEqual(self.log(), "field:focus;field:input;field:change;field:blur;")

    def test_send_keys_to_a_disabled_field_is_not_interactable(self):
        with self.assertRaises(ElementNotInteractableException):
            self.find("disabled").send_keys("x")


if __name__ == "__main__":
    unittest.main()
