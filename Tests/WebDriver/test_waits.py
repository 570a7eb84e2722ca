"""Implicit waits and WebDriverWait with expected_conditions, on elements that appear later."""
import unittest

from selenium.common.exceptions import NoSuchElementException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

import support

_LATER = """
setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'arrived';
  document.body.appendChild(p); }, 500);
setTimeout(() => { document.getElementById('h').style.display = 'none'; document.title = 'Changed'; }, 500);
"""


class WaitTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("title.html")

    def test_implicit_wait_finds_an_element_that_appears_later(self):
        self.driver.implicitly_wait(10)
        self.driver.execute_script(_LATER)
        self.assertEqual(self.driver.find_element(By.ID, "late").text, "arrived")

    def test_implicit_wait_gives_up(self):
        self.driver.implicitly_wait(0.5)
        with self.assertRaises(NoSuchElementException):
            self.driver.find_element(By.ID, "never")
        self.assertEqual(self.driver.find_elements(By.ID, "never"), [])

    def test_without_implicit_wait_missing_is_immediate(self):
        self.driver.execute_script(_LATER)
        with self.assertRaises(NoSuchElementException):
            self.driver.find_element(By.ID, "late")

    def test_webdriverwait_expected_conditions(self):
        self.driver.execute_script(_LATER)
        wait = WebDriverWait(self.driver, 10)
        late = wait.until(EC.presence_of_element_located((By.ID, "late")))
        self.assertEqual(late.text, "arrived")
        wait.until(EC.title_is("Changed"))
        wait.until(EC.invisibility_of_element_located((By.ID, "h")))
        self.assertTrue(wait.until(EC.text_to_be_present_in_element((By.ID, "late"), "arriv")))
        self.assertEqual(wait.until(EC.element_to_be_clickable((By.ID, "next"))).text, "Next page")

    def test_webdriverwait_times_out(self):
        with self.assertRaises(TimeoutException):
            WebDriverWait(self.driver, 0.5).until(EC.presence_of_element_located((By.ID, "never")))


if __name__ == "__main__":
    unittest.main()
