"""Wheel actions (ActionChains scroll_*), each test in a fresh session."""
import unittest

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

import support


class ScrollTests(unittest.TestCase):
    def setUp(self):
        self.driver = support.new_driver()
        self.addCleanup(self.driver.quit)
        self.driver.get(support.page_server() + "/actions.html")

    def scrolled(self, beyond=0):
        # Scrolling may finish after the action returns; wait (bounded) for it to show.
        return WebDriverWait(self.driver, 5).until(lambda d: d.execute_script("return scrollY") > beyond)

    def log(self):
        return self.driver.find_element(By.ID, "log").text

    @support.webkit_differs("a wheel action from the viewport origin is sometimes dropped (seen in 1 of 3 full runs)")
    def test_scroll_by_amount(self):
        ActionChains(self.driver).scroll_by_amount(0, 500).perform()
        self.scrolled()
        self.assertIn("wheel:true;", self.log())

    def test_scroll_from_element_origin(self):
        origin = ScrollOrigin.from_element(self.driver.find_element(By.ID, "hover"))
        ActionChains(self.driver).scroll_from_origin(origin, 0, 300).perform()
        self.scrolled()
        self.assertIn("wheel:true;", self.log())

    @support.webkit_differs("only the first wheel action of a session reaches the page; later ones do nothing")
    def test_second_scroll_after_navigation(self):
        ActionChains(self.driver).scroll_by_amount(0, 300).perform()
        self.scrolled()
        self.driver.get(support.page_server() + "/actions.html")
        ActionChains(self.driver).scroll_by_amount(0, 400).perform()
        self.scrolled()
        self.assertIn("wheel:true;", self.log())

    @support.webkit_differs("an element origin outside the viewport fails with move target out of bounds")
    def test_scroll_to_element(self):
        ActionChains(self.driver).scroll_to_element(self.driver.find_element(By.ID, "far")).perform()
        self.scrolled(beyond=2000)


if __name__ == "__main__":
    unittest.main()
