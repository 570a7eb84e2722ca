"""User prompts: alert, confirm, prompt; accept, dismiss, text, send_keys; unhandledPromptBehavior."""
import unittest

from selenium.common.exceptions import NoAlertPresentException, UnexpectedAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

import support


class AlertTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("alerts.html")

    def press(self, id):
        self.driver.find_element(By.ID, id).click()
        return WebDriverWait(self.driver, 5).until(EC.alert_is_present())

    def log(self):
        return self.driver.find_element(By.ID, "log").text

    def test_alert_text_and_accept(self):
        alert = self.press("alert")
        self.assertEqual(alert.text, "Hello alert")
        alert.accept()
        self.assertEqual(self.log(), "after-alert;")

    def test_confirm_accept_and_dismiss(self):
        self.press("confirm").accept()
        self.press("confirm").dismiss()
        self.assertEqual(self.log(), "confirm:true;confirm:false;")

    def test_prompt_send_keys(self):
        alert = self.press("prompt")
        self.assertEqual(alert.text, "Name?")
        alert.send_keys("Ada")
        alert.accept()
        self.press("prompt").dismiss()
        self.assertEqual(self.log(), "prompt:Ada;prompt:null;")

    def test_no_alert_present(self):
        with self.assertRaises(NoAlertPresentException):
            self.driver.switch_to.alert.accept()
        with self.assertRaises(NoAlertPresentException):
            _ = self.driver.switch_to.alert.text


class UnhandledPromptTests(unittest.TestCase):
    def session(self, behavior):
        driver = support.new_driver(unhandledPromptBehavior=behavior)
        self.addCleanup(driver.quit)
        driver.get(support.page_server() + "/alerts.html")
        driver.find_element(By.ID, "confirm").click()
        WebDriverWait(driver, 5).until(EC.alert_is_present())
        return driver

    def test_dismiss_and_notify(self):
        driver = self.session("dismiss and notify")
        with self.assertRaises(UnexpectedAlertPresentException):
            _ = driver.title
        self.assertEqual(driver.find_element(By.ID, "log").text, "confirm:false;")

    def test_accept(self):
        driver = self.session("accept")
        self.assertEqual(driver.title, "Alerts")
        self.assertEqual(driver.find_element(By.ID, "log").text, "confirm:true;")

    def test_ignore(self):
        driver = self.session("ignore")
        with self.assertRaises(UnexpectedAlertPresentException):
            _ = driver.title
        self.assertEqual(driver.switch_to.alert.text, "Sure?")
        driver.switch_to.alert.dismiss()


if __name__ == "__main__":
    unittest.main()
