#!/usr/bin/env python3
"""A Selenium peer for scripts/bench: loads URLs and evaluates one expression each, in one session.

Usage: bench_peer.py webkit|chromium URL_OR_@LIST EXPRESSION
WebKit runs MiniBrowser through WebKitWebDriver (the same engine as Headway) and needs an X
display (run it under xvfb-run); Chromium runs headless.
"""
import sys

from selenium import webdriver


def session(kind):
    if kind == "webkit":
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service
        options = Options()
        options.binary_location = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
        # The arguments given replace WebKitWebDriver's defaults, so --automation must be among them.
        options.add_argument("--automation")
        return webdriver.WebKitGTK(options=options, service=Service(executable_path="/usr/bin/WebKitWebDriver"))
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    options.add_argument("--headless=new")
    options.add_argument("--no-sandbox")
    return webdriver.Chrome(options=options, service=Service(executable_path="/usr/bin/chromedriver"))


def main():
    kind, target, expression = sys.argv[1:4]
    urls = open(target[1:]).read().split() if target.startswith("@") else [target]
    driver = session(kind)
    try:
        for url in urls:
            driver.get(url)
            value = driver.execute_script(f"return ({expression})")
        print(value)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
