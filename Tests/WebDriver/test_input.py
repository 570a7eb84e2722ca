"""Element click, clear and send_keys, as a user types into a form; file inputs."""
import os
import shutil
import tempfile
import unittest

from selenium.common.exceptions import ElementNotInteractableException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.file_detector import UselessFileDetector

import support


class InputTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("form.html")

    def find(self, id):
        return self.driver.find_element(By.ID, id)

    def log(self):
        return self.find("log").text

    def test_click_is_trusted(self):
        self.find("btn").click()
        self.assertEqual(self.log(), "click:true;")

    def test_clear_and_send_keys_into_input(self):
        text = self.find("text")
        text.clear()
        self.assertEqual(text.get_property("value"), "")
        text.send_keys("hello world")
        self.assertEqual(text.get_property("value"), "hello world")
        text.send_keys("!")
        self.assertEqual(text.get_property("value"), "hello world!")

    def test_send_keys_into_textarea(self):
        area = self.find("area")
        area.clear()
        area.send_keys("line one", Keys.ENTER, "line two")
        self.assertEqual(area.get_property("value"), "line one\nline two")

    def test_enter_submits_the_form(self):
        self.find("text").send_keys(Keys.ENTER)
        self.assertEqual(self.log(), "submit;")

    def test_shift_makes_capitals(self):
        keys = self.find("keys")
        keys.send_keys(Keys.SHIFT, "ab", Keys.SHIFT, "c")
        self.assertEqual(keys.get_property("value"), "ABc")
        self.assertIn("down:A:true;", self.log())
        self.assertIn("down:c:false;", self.log())

    def test_keys_after_a_button_held_on_a_select(self):
        self.open("state.html")
        select = self.find("sel")
        ActionChains(self.driver).click_and_hold(select).perform()
        ActionChains(self.driver).release().perform()
        self.assertEqual(select.get_property("value"), "b")
        self.open("form.html")
        keys = self.find("keys")
        keys.send_keys(Keys.SHIFT, "ab", Keys.SHIFT, "c Hello")
        self.assertEqual(keys.get_property("value"), "ABc Hello")

    def test_date_and_time_inputs_take_a_users_keys(self):
        # Typed in the order of the page's locale, a , - . / ; or : key moving to the next part, as a
        # user types: the same in headway (en-US, 12-hour times) and WebKitWebDriver (C, 24-hour).
        for input, text, value in (("date", "01/31/2024", "2024-01-31"), ("month", "01/2024", "2024-01"),
                                   ("time", "02:34:AM", "02:34"), ("local", "01/31/2024,02:34:AM", "2024-01-31T02:34")):
            self.open("dates.html")
            field = self.find(input)
            field.send_keys(text)
            self.assertEqual(field.get_property("value"), value)

    def chosen(self, input, path):
        # The paths go to the server as they are: the servers under test run on this machine.
        with self.driver.file_detector_context(UselessFileDetector):
            self.find(input).send_keys(path)
        return self.driver.execute_script("return chosen(arguments[0])", input)

    def folder(self):
        root = tempfile.mkdtemp(prefix="webdriver-files-")
        self.addCleanup(shutil.rmtree, root, True)
        tree = os.path.join(root, "tree")
        os.makedirs(os.path.join(tree, "sub"))
        for name, text in (("a.txt", "A"), ("sub/b.txt", "B")):
            with open(os.path.join(tree, name), "w") as file:
                file.write(text)
        return tree

    @support.webkit_differs("Selenium's remote upload (POST /session/{id}/se/file) is an unknown command")
    def test_a_remote_clients_upload_reaches_the_file_input(self):
        # Selenium's remote driver zips a local file, uploads it, and types the server's path for it.
        self.open("files.html")
        folder = tempfile.mkdtemp(prefix="webdriver-upload-")
        self.addCleanup(shutil.rmtree, folder, True)
        path = os.path.join(folder, "notes.txt")
        with open(path, "w") as file:
            file.write("uploaded text")
        self.find("one").send_keys(path)
        self.assertEqual(self.driver.execute_script("return chosen('one')"), [["notes.txt", "", 13]])
        kind = self.driver.execute_script("return document.getElementById('one').files[0].type")
        self.assertEqual(kind, "text/plain")

    def test_a_directory_given_to_a_file_input(self):
        self.open("files.html")
        self.assertEqual(self.chosen("one", self.folder()), [["tree", "", 0]])

    @support.webkit_differs("a directory given to a webkitdirectory input is one empty file, not the folder's files")
    def test_a_folder_input_gets_the_folders_files(self):
        self.open("files.html")
        self.assertEqual(self.chosen("folder", self.folder()),
                         [["a.txt", "tree/a.txt", 1], ["b.txt", "tree/sub/b.txt", 1]])
        self.assertEqual(self.driver.execute_async_script(
            "document.getElementById('folder').files[1].text().then(arguments[0])"), "B")

    def test_hidden_input_is_not_interactable(self):
        with self.assertRaises(ElementNotInteractableException):
            self.find("invisible").send_keys("x")
        with self.assertRaises(ElementNotInteractableException):
            self.find("invisible").click()


if __name__ == "__main__":
    unittest.main()
