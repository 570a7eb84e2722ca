"""Get Element Text: the visible-text rules of Selenium's getVisibleText, which the spec names."""
import unittest

from selenium.webdriver.common.by import By

import support


class TextTests(support.SessionCase):
    def setUp(self):
        super().setUp()
        self.open("text.html")

    def text(self, id):
        return self.driver.find_element(By.ID, id).text

    def test_no_break_spaces_become_spaces(self):
        self.assertEqual(self.text("nbsp"), "a  b ")

    def test_table_cells_are_joined_by_one_space(self):
        self.assertEqual(self.text("row"), "one two three")

    def test_white_space_styles(self):
        self.assertEqual(self.text("pre"), "  line one\n    line two end")
        self.assertEqual(self.text("prewrap"), "a   b")
        self.assertEqual(self.text("preline"), "a b\n c")

    def test_text_transform(self):
        self.assertEqual(self.text("upper"), "HELLO WORLD")
        self.assertEqual(self.text("cap"), "Hello WORLD")
        self.assertEqual(self.text("lower"), "hello")

    def test_line_breaks(self):
        self.assertEqual(self.text("breaks"), "a\nb\n\nc")

    def test_hidden_text_is_left_out(self):
        self.assertEqual(self.text("mixed"), "vis end")
        self.assertEqual(self.text("invisible"), "inner")

    def test_shadow_roots_and_slots(self):
        self.assertEqual(self.text("host"), "shadow text")
        self.assertEqual(self.text("slots"), "before slotted after default")

    def test_link_text_is_the_visible_text(self):
        self.assertEqual(self.driver.find_element(By.LINK_TEXT, "Next page").get_attribute("id"), "link")

    @support.webkit_differs("block-level elements and adjacent table cells are run together")
    def test_blocks_and_cells_without_spaces_between(self):
        self.assertEqual(self.text("blocks"), "one\ntwo\nthree\nfour\nfive six")
        self.assertEqual(self.text("compact"), "one two three")

    @support.webkit_differs("capitalize starts a word after an apostrophe or underscore")
    def test_capitalize_keeps_words_whole(self):
        self.assertEqual(self.text("capwords"), "O'neil Snake_case")


if __name__ == "__main__":
    unittest.main()
