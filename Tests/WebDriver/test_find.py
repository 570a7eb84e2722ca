"""find_element(s) by every strategy, from the document, an element and a shadow root."""
import unittest

from selenium.webdriver.common.by import By

import support


class FindTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("find.html")

    def test_css(self):
        self.assertEqual(self.driver.find_element(By.CSS_SELECTOR, "#main .item").text, "one")
        items = self.driver.find_elements(By.CSS_SELECTOR, "p.item")
        self.assertEqual([e.text for e in items], ["one", "two", "three"])
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, ".nothing"), [])

    def test_id_and_name(self):
        self.assertEqual(self.driver.find_element(By.ID, "inside").text, "inner span")
        self.assertEqual(self.driver.find_element(By.NAME, "q").get_attribute("value"), "query")

    def test_xpath(self):
        self.assertEqual(self.driver.find_element(By.XPATH, "//p[2]").text, "two")
        self.assertEqual(len(self.driver.find_elements(By.XPATH, "//div[@id='main']/p")), 3)

    def test_link_text(self):
        self.assertEqual(self.driver.find_element(By.LINK_TEXT, "Go to the next page").get_attribute("id"), "go")
        self.assertEqual(self.driver.find_elements(By.LINK_TEXT, "Go to the"), [])

    def test_partial_link_text(self):
        self.assertEqual(self.driver.find_element(By.PARTIAL_LINK_TEXT, "next").get_attribute("id"), "go")
        self.assertEqual(len(self.driver.find_elements(By.PARTIAL_LINK_TEXT, "page")), 1)

    def test_tag_name(self):
        self.assertEqual(len(self.driver.find_elements(By.TAG_NAME, "p")), 3)
        self.assertEqual(self.driver.find_element(By.TAG_NAME, "span").text, "inner span")

    def test_from_element(self):
        main = self.driver.find_element(By.ID, "main")
        self.assertEqual(len(main.find_elements(By.TAG_NAME, "p")), 3)
        self.assertEqual(main.find_element(By.XPATH, "./p[3]").text, "three")
        self.assertEqual(main.find_element(By.CSS_SELECTOR, "span").get_attribute("id"), "inside")
        # Searches from an element do not escape it.
        self.assertEqual(main.find_elements(By.TAG_NAME, "a"), [])

    def test_from_shadow_root(self):
        root = self.driver.find_element(By.ID, "host").shadow_root
        self.assertEqual(root.find_element(By.CSS_SELECTOR, ".shadowed").text, "in the shadow")
        self.assertEqual(len(root.find_elements(By.CSS_SELECTOR, "input")), 1)
        # Shadow content is not found from the document.
        self.assertEqual(self.driver.find_elements(By.CSS_SELECTOR, ".shadowed"), [])

    def test_found_elements_compare_equal(self):
        first = self.driver.find_element(By.ID, "main")
        again = self.driver.find_element(By.CSS_SELECTOR, "div.box")
        self.assertEqual(first, again)
        self.assertNotEqual(first, self.driver.find_element(By.ID, "inside"))


if __name__ == "__main__":
    unittest.main()
