"""execute_script and execute_async_script: arguments, results, errors, the script timeout."""
import unittest

from selenium.common.exceptions import JavascriptException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement

import support


class ScriptTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("find.html")
        self.driver.set_script_timeout(30)

    def test_values_round_trip(self):
        run = self.driver.execute_script
        self.assertEqual(run("return 1 + 2"), 3)
        self.assertEqual(run("return 'a' + 'b'"), "ab")
        self.assertIsNone(run("return null"))
        self.assertIsNone(run("1"))
        self.assertEqual(run("return [1, 'two', true, null]"), [1, "two", True, None])
        self.assertEqual(run("return {a: 1, b: [2, 3], c: {d: 'e'}}"), {"a": 1, "b": [2, 3], "c": {"d": "e"}})
        self.assertEqual(run("return arguments[0] * arguments[1]", 6, 7), 42)
        self.assertEqual(run("return arguments[0].x.length", {"x": [1, 2, 3]}), 3)

    def test_element_arguments_and_results(self):
        main = self.driver.find_element(By.ID, "main")
        self.assertEqual(self.driver.execute_script("return arguments[0].id", main), "main")
        returned = self.driver.execute_script("return document.getElementById('inside')")
        self.assertIsInstance(returned, WebElement)
        self.assertEqual(returned.text, "inner span")
        items = self.driver.execute_script("return document.querySelectorAll('p.item')")
        self.assertEqual([e.text for e in items], ["one", "two", "three"])
        mixed = self.driver.execute_script("return {el: arguments[0], list: [arguments[0]]}", main)
        self.assertEqual(mixed["el"], main)
        self.assertEqual(mixed["list"][0], main)

    def test_script_error_is_javascript_exception(self):
        with self.assertRaises(JavascriptException) as caught:
            self.driver.execute_script("throw new Error('boom here')")
        self.assertIn("boom here", caught.exception.msg)
        with self.assertRaises(JavascriptException):
            self.driver.execute_script("return no_such_variable")

    def test_async_script(self):
        result = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; setTimeout(() => done(arguments[0] + 1), 50)", 41)
        self.assertEqual(result, 42)
        result = self.driver.execute_async_script(
            "arguments[arguments.length - 1](document.getElementById('main'))")
        self.assertEqual(result.get_attribute("id"), "main")

    def test_script_returning_a_promise(self):
        self.assertEqual(self.driver.execute_script("return Promise.resolve(5)"), 5)

    def test_script_timeout(self):
        self.driver.set_script_timeout(1)
        with self.assertRaises(TimeoutException):
            self.driver.execute_async_script("/* never calls back */")
        # The session still works.
        self.assertEqual(self.driver.execute_script("return 2"), 2)

    def test_async_script_error(self):
        with self.assertRaises(JavascriptException):
            self.driver.execute_async_script("throw new Error('async boom')")


if __name__ == "__main__":
    unittest.main()
