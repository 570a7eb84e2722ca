"""The same pages from nginx (NGINX_URL, or a private one with NGINX_URL=auto): a production server's
gzip and Set-Cookie headers. Skipped when NGINX_URL is not set (SeleniumSuiteTests sets it)."""
import os
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

import support


@unittest.skipUnless(os.environ.get("NGINX_URL"), "NGINX_URL is not set")
class NginxTests(support.SessionCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.base = support.nginx_server()

    def test_gzipped_page_loads(self):
        self.open("find.html")
        self.assertEqual(self.driver.title, "Find")
        self.assertEqual(len(self.driver.find_elements(By.CSS_SELECTOR, "p.item")), 3)
        self.assertEqual(self.driver.find_element(By.ID, "host").shadow_root
                         .find_element(By.CSS_SELECTOR, ".shadowed").text, "in the shadow")

    def test_cookie_set_by_the_server(self):
        self.open("title.html")
        self.assertEqual(self.driver.get_cookie("served")["value"], "nginx")
        self.driver.delete_all_cookies()
        self.assertEqual(self.driver.get_cookies(), [])

    def test_click_and_navigation(self):
        self.open("form.html")
        self.driver.find_element(By.ID, "btn").click()
        self.assertEqual(self.driver.find_element(By.ID, "log").text, "click:true;")
        self.open("title.html")
        self.driver.find_element(By.ID, "next").click()
        # A link's navigation may start after the click returns; a Selenium user waits for it.
        WebDriverWait(self.driver, 10).until(EC.url_to_be(self.page("next.html")))
        self.driver.back()
        self.assertEqual(self.driver.title, "Title page")


if __name__ == "__main__":
    unittest.main()
