"""Frames: switch by index, element and name, parent_frame, default_content; local files' frames."""
import pathlib
import tempfile
import unittest

from selenium.common.exceptions import NoSuchFrameException
from selenium.webdriver.common.by import By

import support


class FrameTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("frames.html")

    def which(self):
        return self.driver.find_element(By.ID, "which").text

    def test_by_index(self):
        self.driver.switch_to.frame(0)
        self.assertEqual(self.which(), "frame a")
        self.driver.switch_to.default_content()
        self.driver.switch_to.frame(1)
        self.assertEqual(self.which(), "frame b")

    def test_by_element_and_name(self):
        self.driver.switch_to.frame(self.driver.find_element(By.ID, "fb"))
        self.assertEqual(self.which(), "frame b")
        self.driver.switch_to.default_content()
        self.driver.switch_to.frame("fa")
        self.assertEqual(self.which(), "frame a")

    def test_nested_parent_and_default_content(self):
        self.driver.switch_to.frame(0)
        self.driver.switch_to.frame(self.driver.find_element(By.ID, "inner"))
        self.assertEqual(self.which(), "inner frame")
        self.assertEqual(self.driver.execute_script("return document.title"), "Inner")
        self.driver.switch_to.parent_frame()
        self.assertEqual(self.which(), "frame a")
        self.driver.switch_to.default_content()
        self.assertEqual(self.driver.find_element(By.ID, "top").text, "top")

    def test_elements_of_the_top_are_not_found_in_a_frame(self):
        self.driver.switch_to.frame(0)
        self.assertEqual(self.driver.find_elements(By.ID, "top"), [])

    def test_no_such_frame(self):
        with self.assertRaises(NoSuchFrameException):
            self.driver.switch_to.frame(5)
        with self.assertRaises(NoSuchFrameException):
            self.driver.switch_to.frame("nope")

    def test_parent_of_top_stays_at_top(self):
        self.driver.switch_to.parent_frame()
        self.assertEqual(self.driver.find_element(By.ID, "top").text, "top")


class FileFrameTests(support.SessionCase):
    """Pages from file: URLs, whose frames are local files too (as Helium's own tests have them)."""

    def test_frames_of_local_files_can_be_entered(self):
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            (root / "top.html").write_text("<title>Top</title><p id=which>top</p><iframe src=inner.html></iframe>")
            (root / "inner.html").write_text("<p id=which>inner</p><iframe src=deepest.html></iframe>")
            (root / "deepest.html").write_text("<p id=which>deepest</p>")
            self.driver.get((root / "top.html").as_uri())
            self.driver.switch_to.frame(0)
            self.assertEqual(self.driver.find_element(By.ID, "which").text, "inner")
            self.driver.switch_to.frame(0)
            self.assertEqual(self.driver.find_element(By.ID, "which").text, "deepest")
            self.driver.switch_to.default_content()
            self.assertEqual(self.driver.find_element(By.ID, "which").text, "top")


if __name__ == "__main__":
    unittest.main()
