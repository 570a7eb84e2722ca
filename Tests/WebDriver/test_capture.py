"""Screenshots (page and element) and print to PDF."""
import base64
import struct
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.print_page_options import PrintOptions

import support

PNG = b"\x89PNG\r\n\x1a\n"


def png_size(data):
    return struct.unpack(">II", data[16:24])


class CaptureTests(support.SessionCase):
    def test_page_screenshot(self):
        self.open("state.html")
        self.driver.set_window_size(800, 600)
        data = self.driver.get_screenshot_as_png()
        self.assertEqual(data[:8], PNG)
        width, height = png_size(data)
        inner = self.driver.execute_script("return [innerWidth, innerHeight]")
        self.assertEqual((width, height), tuple(inner))

    def test_element_screenshot(self):
        self.open("state.html")
        data = self.driver.find_element(By.ID, "box").screenshot_as_png
        self.assertEqual(data[:8], PNG)
        self.assertEqual(png_size(data), (100, 50))

    @support.webkit_differs("print is an unknown command")
    def test_print_page(self):
        self.open("long.html")
        pdf = base64.b64decode(self.driver.print_page())
        self.assertEqual(pdf[:5], b"%PDF-")
        self.assertGreater(len(pdf), 1000)
        options = PrintOptions()
        options.page_ranges = ["1"]
        one = base64.b64decode(self.driver.print_page(options))
        self.assertEqual(one[:5], b"%PDF-")


if __name__ == "__main__":
    unittest.main()
