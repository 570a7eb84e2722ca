"""The errors a Selenium user meets, each with its own exception class."""
import unittest

from selenium.common.exceptions import (InvalidSelectorException, NoSuchElementException,
                                        StaleElementReferenceException)
from selenium.webdriver.common.by import By

import support


class ErrorTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("find.html")

    def test_no_such_element(self):
        with self.assertRaises(NoSuchElementException):
            self.driver.find_element(By.ID, "missing")
        with self.assertRaises(NoSuchElementException):
            self.driver.find_element(By.ID, "main").find_element(By.ID, "go")

    def test_stale_after_navigation(self):
        main = self.driver.find_element(By.ID, "main")
        self.open("title.html")
        with self.assertRaises(StaleElementReferenceException):
            _ = main.text
        with self.assertRaises(StaleElementReferenceException):
            main.click()

    def test_stale_after_removal(self):
        inside = self.driver.find_element(By.ID, "inside")
        self.driver.execute_script("arguments[0].remove()", inside)
        with self.assertRaises(StaleElementReferenceException):
            _ = inside.tag_name

    def test_invalid_css_selector(self):
        with self.assertRaises(InvalidSelectorException):
            self.driver.find_element(By.CSS_SELECTOR, "p[[")

    def test_invalid_xpath(self):
        with self.assertRaises(InvalidSelectorException):
            self.driver.find_element(By.XPATH, "//p[")
        # An XPath that selects something other than elements.
        with self.assertRaises(InvalidSelectorException):
            self.driver.find_element(By.XPATH, "count(//p)")

    def test_session_survives_errors(self):
        with self.assertRaises(NoSuchElementException):
            self.driver.find_element(By.ID, "missing")
        self.assertEqual(self.driver.title, "Find")


if __name__ == "__main__":
    unittest.main()
