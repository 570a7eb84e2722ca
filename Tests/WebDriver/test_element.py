"""What an element reports: text, attributes, properties, CSS, rect, state, ARIA."""
import unittest

from selenium.webdriver.common.by import By

import support


class ElementTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("state.html")

    def find(self, id):
        return self.driver.find_element(By.ID, id)

    def test_text_and_tag_name(self):
        self.assertEqual(self.find("box").text, "Box text")
        self.assertEqual(self.find("box").tag_name.lower(), "div")
        self.assertEqual(self.find("hidden").text, "")

    def test_attribute_property_and_dom_attribute(self):
        box = self.find("box")
        self.assertEqual(box.get_attribute("data-kind"), "square")
        self.assertEqual(box.get_dom_attribute("title"), "Boxy")
        self.assertIsNone(box.get_dom_attribute("missing"))
        self.assertEqual(box.get_property("id"), "box")
        field = self.find("field")
        field.clear()
        field.send_keys("typed")
        self.assertEqual(field.get_property("value"), "typed")
        self.assertEqual(field.get_attribute("value"), "typed")
        # get_attribute resolves a link's href to a full URL.
        self.assertEqual(self.find("rel").get_attribute("href"), self.page("next.html"))
        self.assertEqual(self.find("check").get_attribute("checked"), "true")
        self.assertIsNone(self.find("uncheck").get_attribute("checked"))

    @support.webkit_differs("Get Element Attribute returns the value property, not the attribute")
    def test_dom_attribute_is_not_the_property(self):
        field = self.find("field")
        field.send_keys("typed")
        self.assertEqual(field.get_dom_attribute("value"), "initial")
        self.assertEqual(field.get_property("value"), "initialtyped")
        self.assertEqual(self.find("rel").get_dom_attribute("href"), "next.html")

    def test_css_value(self):
        self.assertEqual(self.find("box").value_of_css_property("color"), "rgb(255, 0, 0)")
        self.assertEqual(self.find("box").value_of_css_property("width"), "100px")
        self.assertEqual(self.find("hidden").value_of_css_property("display"), "none")

    def test_rect(self):
        rect = self.find("box").rect
        self.assertEqual((rect["x"], rect["y"], rect["width"], rect["height"]), (310, 20, 100, 50))
        self.assertEqual(self.find("box").location, {"x": 310, "y": 20})
        self.assertEqual(self.find("box").size, {"width": 100, "height": 50})

    def test_displayed_enabled_selected(self):
        self.assertTrue(self.find("box").is_displayed())
        self.assertFalse(self.find("hidden").is_displayed())
        self.assertTrue(self.find("field").is_enabled())
        self.assertFalse(self.find("off").is_enabled())
        self.assertTrue(self.find("check").is_selected())
        self.assertFalse(self.find("uncheck").is_selected())
        self.assertTrue(self.find("optb").is_selected())
        self.find("uncheck").click()
        self.assertTrue(self.find("uncheck").is_selected())

    def test_aria_role_and_label(self):
        self.assertEqual(self.find("roled").aria_role, "button")
        self.assertEqual(self.find("roled").accessible_name, "Close dialog")
        self.assertEqual(self.find("save").aria_role, "button")
        self.assertEqual(self.find("save").accessible_name, "Save")
        self.assertEqual(self.find("heading").aria_role, "heading")
        self.assertEqual(self.find("heading").accessible_name, "Heading")


if __name__ == "__main__":
    unittest.main()
