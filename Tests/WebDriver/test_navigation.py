"""get, title, current_url, back, forward, refresh, page_source, page load timeout."""
import unittest

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

import support


class NavigationTests(support.SessionCase):
    def test_get_title_and_current_url(self):
        self.open("title.html")
        self.assertEqual(self.driver.title, "Title page")
        self.assertEqual(self.driver.current_url, self.page("title.html"))

    def test_back_forward(self):
        self.open("title.html")
        self.driver.find_element(By.ID, "next").click()
        # A link's navigation may start after the click returns; a Selenium user waits for it.
        WebDriverWait(self.driver, 10).until(EC.title_is("Next"))
        self.driver.back()
        self.assertEqual(self.driver.title, "Title page")
        self.assertEqual(self.driver.current_url, self.page("title.html"))
        self.driver.forward()
        self.assertEqual(self.driver.title, "Next")
        self.assertEqual(self.driver.current_url, self.page("next.html"))

    def test_refresh_loads_the_page_again(self):
        self.open("counter.html")
        first = int(self.driver.find_element(By.ID, "n").text)
        self.driver.refresh()
        self.assertEqual(int(self.driver.find_element(By.ID, "n").text), first + 1)

    def test_page_source(self):
        self.open("find.html")
        source = self.driver.page_source
        self.assertIn("<title>Find</title>", source)
        self.assertIn('id="main"', source)
        self.assertIn("Go to the next page", source)

    def test_page_load_timeout(self):
        self.driver.set_page_load_timeout(1)
        try:
            with self.assertRaises(TimeoutException):
                self.driver.get(self.page("slow?s=4"))
        finally:
            self.driver.set_page_load_timeout(300)
        # The session still works after the timeout.
        self.open("title.html")
        self.assertEqual(self.driver.title, "Title page")


if __name__ == "__main__":
    unittest.main()
