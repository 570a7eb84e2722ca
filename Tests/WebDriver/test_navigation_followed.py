"""Navigations a command starts are followed: the next command sees the new page at once."""
import json
import unittest
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

import support


class FollowedNavigationTests(support.SessionCase):
    @support.webkit_differs("the click or key returns before the navigation it starts (one run in two)")
    def test_a_submit_button_click_returns_on_the_next_page(self):
        self.open("submit.html")
        self.driver.find_element(By.ID, "go").click()
        self.assertEqual(self.driver.title, "Next")
        self.assertEqual(self.driver.current_url, self.page("next.html?q=x"))

    @support.webkit_differs("the click or key returns before the navigation it starts (one run in two)")
    def test_enter_in_a_field_submits_its_form(self):
        self.open("submit.html")
        self.driver.find_element(By.ID, "q").send_keys(Keys.ENTER)
        self.assertEqual(self.driver.title, "Next")

    def test_a_form_submitted_by_script_on_a_timer_is_followed(self):
        self.open("submit.html")
        self.driver.find_element(By.ID, "later").click()
        self.assertEqual(self.driver.title, "Next")
        self.assertEqual(self.driver.current_url, self.page("next.html?lq=y"))

    def test_a_form_a_script_submits_is_followed(self):
        # Selenium's element.submit() is an Execute Script that calls form.submit().
        self.open("submit.html")
        self.driver.execute_script("document.getElementById('f').submit()")
        self.assertEqual(self.driver.title, "Next")
        self.open("submit.html")
        self.driver.find_element(By.ID, "q").submit()
        self.assertEqual(self.driver.current_url, self.page("next.html?q=x"))

    def test_a_slow_page_a_click_opens_is_waited_for(self):
        self.open("submit.html")
        self.driver.find_element(By.ID, "slowlink").click()
        self.assertEqual(self.driver.current_url, self.page("slow?s=1"))
        self.assertEqual(self.driver.title, "Not found")

    @support.webkit_differs("the click or key returns before the navigation it starts (one run in two)")
    def test_back_and_forward_then_read(self):
        self.open("submit.html")
        self.driver.find_element(By.ID, "go").click()
        self.driver.back()
        self.assertEqual(self.driver.title, "Submit")
        self.assertEqual(self.driver.find_element(By.ID, "q").get_attribute("value"), "x")
        self.driver.forward()
        self.assertEqual(self.driver.title, "Next")
        self.assertEqual(self.driver.find_element(By.ID, "p").text, "Second page")

    def test_fragments_and_push_state(self):
        self.open("submit.html")
        self.driver.get(self.page("submit.html#part"))
        self.assertEqual(self.driver.current_url, self.page("submit.html#part"))
        self.driver.find_element(By.ID, "frag").click()
        self.assertEqual(self.driver.execute_script("return location.hash"), "#part")
        self.driver.find_element(By.ID, "push").click()
        self.assertEqual(self.driver.current_url, self.page("pushed.html"))
        self.driver.back()
        self.assertEqual(self.driver.current_url, self.page("submit.html#part"))
        self.assertEqual(self.driver.title, "Submit")

    @unittest.skipUnless(support.BROWSER == "headway", "/headway/timing is Headway's extension")
    def test_timing_describes_the_page_a_click_opened(self):
        self.open("submit.html")
        self.driver.find_element(By.ID, "go").click()
        url = f"{support.URL}/session/{self.driver.session_id}/headway/timing"
        with urllib.request.urlopen(url, timeout=60) as answer:
            load = json.load(answer)["value"]
        self.assertEqual(load["title"], "Next")
        self.assertEqual(load["finalURL"], self.page("next.html?q=x"))
        self.assertGreater(load["timing"]["loadEventEnd"], 0)


if __name__ == "__main__":
    unittest.main()
