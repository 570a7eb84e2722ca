"""The same pages from nginx (NGINX_URL, or a private one with NGINX_URL=auto): a production server's
gzip and Set-Cookie headers. Skipped when NGINX_URL is not set (SeleniumSuiteTests sets it)."""
import os
import time
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


@unittest.skipUnless(os.environ.get("NGINX_URL"), "NGINX_URL is not set")
@unittest.skipIf(support.BROWSER == "webkit", "WebKitWebDriver refuses webSocketUrl")
class NginxBiDiTests(unittest.TestCase):
    """WebDriver BiDi on nginx's pages: its gzipped answers and Set-Cookie seen as network events."""

    @classmethod
    def setUpClass(cls):
        cls.base = support.nginx_server()
        cls.driver = support.new_driver(webSocketUrl=True)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def test_network_events_show_nginx_headers(self):
        completed = []
        handler = self.driver.network.add_event_handler("response_completed", completed.append)
        url = f"{self.base}/title.html"
        try:
            self.driver.browsing_context.navigate(context=self.driver.current_window_handle, url=url, wait="complete")
            deadline = time.monotonic() + 10
            while not any(_request(e)["url"] == url for e in completed) and time.monotonic() < deadline:
                time.sleep(0.02)
        finally:
            self.driver.network.remove_event_handler("response_completed", handler)
        event = next(e for e in completed if _request(e)["url"] == url)
        response = event["response"] if isinstance(event, dict) else event.response
        headers = {h["name"].lower(): h["value"]["value"] for h in response["headers"]}
        self.assertEqual(response["status"], 200)
        self.assertEqual(headers.get("server", "").split("/")[0], "nginx")
        self.assertEqual(headers.get("content-encoding"), "gzip")
        if support.BROWSER != "headway":
            # WebKit keeps Set-Cookie out of the response headers it reports (docs/webdriver.md).
            self.assertIn("served=nginx", headers.get("set-cookie", ""))
        # What nginx set is the page's cookie, over BiDi's storage too.
        cookies = self.driver.storage.get_cookies()
        names = [c["name"] if isinstance(c, dict) else c.name
                 for c in (cookies["cookies"] if isinstance(cookies, dict) else cookies.cookies)]
        self.assertIn("served", names)

    def test_response_bodies_are_collected(self):
        collector = self.driver.network.add_data_collector(data_types=["response"], max_encoded_data_size=1 << 20)
        collector = collector["collector"] if isinstance(collector, dict) else collector
        completed = []
        handler = self.driver.network.add_event_handler("response_completed", completed.append)
        url = f"{self.base}/find.html"
        try:
            self.driver.browsing_context.navigate(context=self.driver.current_window_handle, url=url, wait="complete")
            deadline = time.monotonic() + 10
            while not any(_request(e)["url"] == url for e in completed) and time.monotonic() < deadline:
                time.sleep(0.02)
        finally:
            self.driver.network.remove_event_handler("response_completed", handler)
        request = next(_request(e)["request"] for e in completed if _request(e)["url"] == url)
        # The gzipped document, decoded.
        data = self.driver.network.get_data(data_type="response", request=request, collector=collector)
        self.assertEqual(data["bytes"]["type"], "string")
        self.assertIn("<title>Find</title>", data["bytes"]["value"])
        self.driver.network.disown_data(data_type="response", collector=collector, request=request)
        with self.assertRaisesRegex(Exception, "no such network data"):
            self.driver.network.get_data(data_type="response", request=request, collector=collector)
        self.driver.network.remove_data_collector(collector=collector)
        with self.assertRaisesRegex(Exception, "no such network collector"):
            self.driver.network.remove_data_collector(collector=collector)


def _request(event):
    return event["request"] if isinstance(event, dict) else event.request


if __name__ == "__main__":
    unittest.main()
