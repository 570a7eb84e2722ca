"""Window handles, new tabs and windows, close, switching; window rect, position and states."""
import unittest

from selenium.common.exceptions import NoSuchWindowException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

import support


class WindowTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.main = self.driver.current_window_handle
        for handle in self.driver.window_handles:
            if handle != self.main:
                self.driver.switch_to.window(handle)
                self.driver.close()
        self.driver.switch_to.window(self.main)
        self.open("title.html")

    def test_new_tab_switch_and_close(self):
        self.assertEqual(self.driver.window_handles, [self.main])
        self.driver.switch_to.new_window("tab")
        tab = self.driver.current_window_handle
        self.assertNotEqual(tab, self.main)
        self.assertEqual(set(self.driver.window_handles), {self.main, tab})
        self.open("next.html")
        self.assertEqual(self.driver.title, "Next")
        self.driver.switch_to.window(self.main)
        self.assertEqual(self.driver.title, "Title page")
        self.driver.switch_to.window(tab)
        self.driver.close()
        self.assertEqual(self.driver.window_handles, [self.main])
        with self.assertRaises(NoSuchWindowException):
            _ = self.driver.title
        self.driver.switch_to.window(self.main)
        self.assertEqual(self.driver.title, "Title page")

    def test_new_window(self):
        self.driver.switch_to.new_window("window")
        self.assertEqual(len(self.driver.window_handles), 2)
        self.assertEqual(self.driver.current_url, "about:blank")

    def test_window_opened_by_a_link(self):
        self.driver.find_element(By.ID, "popup").click()
        WebDriverWait(self.driver, 5).until(lambda d: len(d.window_handles) == 2)
        handles = [h for h in self.driver.window_handles if h != self.main]
        self.assertEqual(len(handles), 1)
        self.driver.switch_to.window(handles[0])
        # The new window loads on its own; wait (bounded) for its page.
        WebDriverWait(self.driver, 10).until(EC.text_to_be_present_in_element((By.ID, "p"), "Second page"))
        self.assertEqual(self.driver.current_url, self.page("next.html"))

    def test_switch_to_unknown_window(self):
        with self.assertRaises(NoSuchWindowException):
            self.driver.switch_to.window("no-such-handle")

    def test_set_and_get_window_rect(self):
        self.driver.set_window_rect(width=800, height=600)
        rect = self.driver.get_window_rect()
        self.assertEqual((rect["width"], rect["height"]), (800, 600))
        self.driver.set_window_size(640, 480)
        self.assertEqual(self.driver.get_window_size(), {"width": 640, "height": 480})
        if support.BROWSER == "headway":
            # Headway's window is its viewport (no frame, no toolbar). WebKitGTK reports outerWidth
            # only for a window on screen, so a headless one reads 0 there: the page's innerWidth is the measure.
            self.assertEqual(self.driver.execute_script("return [innerWidth, innerHeight]"), [640, 480])
        else:
            self.assertEqual(self.driver.execute_script("return outerWidth"), 640)

    def test_window_position_is_kept(self):
        rect = self.driver.set_window_rect(x=100, y=120)
        self.assertEqual((rect["x"], rect["y"]), (100, 120))
        self.driver.set_window_position(30, 40)
        self.assertEqual(self.driver.get_window_position(), {"x": 30, "y": 40})
        self.driver.set_window_size(700, 500)
        self.assertEqual(self.driver.get_window_rect(), {"x": 30, "y": 40, "width": 700, "height": 500})

    def visibility(self):
        return self.driver.execute_script("return [document.visibilityState, window.seen]")

    def minimize_then(self, *restorers):
        self.driver.execute_script("window.seen = []; document.addEventListener("
                                   "'visibilitychange', () => seen.push(document.visibilityState))")
        self.driver.set_window_rect(x=10, y=20, width=700, height=500)
        seen = []
        for restore in restorers:
            self.driver.minimize_window()
            seen.append("hidden")
            self.assertEqual(self.visibility(), ["hidden", seen])
            restore()
            seen.append("visible")
            self.assertEqual(self.visibility(), ["visible", seen])

    def test_minimize_hides_the_document_until_restored(self):
        self.minimize_then(lambda: self.driver.set_window_rect(width=640, height=480), self.driver.maximize_window)

    @support.webkit_differs("Fullscreen Window on a minimized window never answers; the window stays hidden")
    def test_fullscreen_restores_a_minimized_window(self):
        self.minimize_then(self.driver.fullscreen_window)

    def test_a_minimized_window_takes_input(self):
        self.open("form.html")
        self.driver.minimize_window()
        self.driver.find_element(By.ID, "btn").click()
        self.driver.find_element(By.ID, "keys").send_keys("ab")
        self.assertEqual(self.driver.find_element(By.ID, "log").text, "click:true;down:a:false;down:b:false;")
        self.assertEqual(self.driver.execute_script("return document.visibilityState"), "hidden")
        self.driver.set_window_rect(width=800, height=600)

    @support.webkit_differs("window.open() from a script returns null (popups blocked without a user gesture)")
    def test_window_opened_by_a_script(self):
        self.assertTrue(self.driver.execute_script("return window.open('next.html') !== null"))
        self.assertEqual(len(self.driver.window_handles), 2)

    @support.webkit_differs("maximize leaves the window as it was (MiniBrowser under Xvfb has no window manager)")
    def test_maximize(self):
        self.driver.set_window_size(500, 400)
        self.driver.maximize_window()
        rect = self.driver.get_window_rect()
        self.assertGreater(rect["width"], 500)
        self.assertGreater(rect["height"], 400)


if __name__ == "__main__":
    unittest.main()
