#!/usr/bin/env python3
"""The transaction manager's page in a real browser (headless Chromium through Selenium), while the C++
example game runs on the same state directory: the page shows the game's purchases, updates by itself when
the command line buys, keeps what the tester typed in a row through a redraw, refuses bad input with a message,
refunds the game's Pro Upgrade with a click (the game prints `revoked`, the page shows the refund), shows the
signed payload on demand, and refuses a request without the page's token. Saves a screenshot of the page.

usage: transaction_manager.py IOSIAP_STORE GAME CATALOG WORK_DIRECTORY SCREENSHOT.png
"""
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

PRO = "com.iosiap.example.pro_upgrade"
COINS = "com.iosiap.example.coins_100"
GOLD = "com.iosiap.example.club_gold_monthly"


def fail(message):
    print(f"FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def wait_for(what, condition, seconds):
    """Polls condition() until it is true (returns its value) or `seconds` pass (fails, naming `what`)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = condition()
        except StaleElementReferenceException:  # the page drew the row again while it was read: read it again
            value = None
        if value:
            return value
        time.sleep(0.05)
    fail(f"{what} (after {seconds} s)")


def main():
    store_bin, game, catalog, work, screenshot = sys.argv[1:6]
    state = os.path.join(work, "state-browser")
    game_log = os.path.join(work, "browser-game.out")
    processes = []
    driver = None
    try:
        with open(game_log, "w") as out:
            processes.append(subprocess.Popen([game, catalog, state], stdout=out, stderr=subprocess.STDOUT,
                                              env=dict(os.environ, IOSIAP_EXAMPLE_LINGER_SECONDS="40")))
        game_output = lambda: open(game_log).read()
        wait_for("the game reaches its frame loop", lambda: "lingering" in game_output(), 20)

        server = subprocess.Popen([store_bin, "--state", state, "serve", "--port", "0"], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)
        processes.append(server)
        lines = [server.stdout.readline(), server.stdout.readline()]
        page_line = next((line for line in lines if line.startswith("Transaction manager on ")), None)
        if not page_line:
            fail(f"serve printed no page URL: {lines}")
        url = page_line.split(" on ")[-1].strip()
        base, _, fragment = url.partition("#token=")
        if len(fragment) != 64:
            fail(f"the printed page address carries no token: {url}")
        # The token is in no file served: without the printed address, the page cannot read the store.
        with urllib.request.urlopen(base, timeout=5) as response:
            if fragment in response.read().decode():
                fail("the page's HTML carries its token")

        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1250"]:
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        driver.get(url)
        wait_for("the page takes the token out of the address bar", lambda: "#token" not in driver.current_url, 5)

        def row(product, state=None):
            selector = f'#transactions tr[data-product="{product}"]' + (f'[data-state="{state}"]' if state else "")
            rows = driver.find_elements(By.CSS_SELECTOR, selector)
            return rows[0] if rows else None

        def message():
            return driver.find_element(By.ID, "message").text

        pro = wait_for("the page shows the game's Pro Upgrade as active", lambda: row(PRO, "active"), 10)
        pro_id = pro.get_attribute("data-transaction")
        # A product id wraps after its dots, never inside a word, and reads (and copies) as the id.
        cell = pro.find_elements(By.TAG_NAME, "td")[2]
        if len(cell.find_elements(By.TAG_NAME, "wbr")) != PRO.count(".") or cell.text.replace("\n", "") != PRO:
            fail(f"the product id cell is not the id with a break after each dot: {cell.get_attribute('innerHTML')}")

        # A change made elsewhere (the command line) shows within a second, with no reload.
        before = len(driver.find_elements(By.CSS_SELECTOR, "#transactions tbody tr"))
        subprocess.run([store_bin, "--state", state, "buy", COINS], check=True, stdout=subprocess.DEVNULL)
        started = time.monotonic()
        wait_for("the page shows the command line's purchase",
                 lambda: len(driver.find_elements(By.CSS_SELECTOR, "#transactions tbody tr")) == before + 1, 3)
        shown_after = time.monotonic() - started
        if shown_after > 1.0:
            fail(f"the page showed the purchase after {shown_after:.2f} s")

        # What the tester typed stays with its row while the table is drawn again: a quantity typed for the coins,
        # then the storefront changed from the command line (every price, so the products table, drawn again).
        def product(product_id):
            return driver.find_element(By.CSS_SELECTOR, f'#products tr[data-product="{product_id}"]')

        def quantities():
            return {product_id: product(product_id).find_element(By.NAME, "quantity").get_attribute("value") for product_id in (COINS, PRO)}

        typed = product(COINS).find_element(By.NAME, "quantity")
        typed.clear()
        typed.send_keys("3")
        for storefront, currency in (("DEU", "€"), ("USA", "$")):
            subprocess.run([store_bin, "--state", state, "storefront", storefront], check=True, stdout=subprocess.DEVNULL)
            wait_for(f"the page shows the prices of {storefront}", lambda: currency in product(COINS).text, 3)
            for attempt in range(3):
                try:
                    if quantities() != {COINS: "3", PRO: "1"}:
                        fail(f"a redraw of the products moved or lost the typed quantity: {quantities()}")
                    break
                except StaleElementReferenceException:
                    if attempt == 2:
                        raise

        # Bad input: a clear message, nothing bought.
        product_row = driver.find_element(By.CSS_SELECTOR, f'#products tr[data-product="{COINS}"]')
        quantity = product_row.find_element(By.NAME, "quantity")
        quantity.clear()
        quantity.send_keys("lots")
        product_row.find_element(By.CSS_SELECTOR, "button.buy").click()
        wait_for("the page says what is wrong with the quantity", lambda: "buy: quantity must be a number, not 'lots'" in message(), 5)
        time.sleep(0.6)  # a poll later: still no new transaction
        if len(driver.find_elements(By.CSS_SELECTOR, "#transactions tbody tr")) != before + 1:
            fail("bad input changed the history")

        # Refund the game's purchase with a click: the game hears of it, the page shows it. The reason is chosen,
        # never assumed: a click without one sends nothing.
        reason = row(PRO, "active").find_element(By.CSS_SELECTOR, 'select[name="reason"]')
        if driver.execute_script("return arguments[0].form.checkValidity()", reason):
            fail("a refund without a chosen reason could be sent")
        Select(reason).select_by_value("issue")
        # Another purchase draws the table again: the choice stays (the row is new).
        rows_before = len(driver.find_elements(By.CSS_SELECTOR, "#transactions tbody tr"))
        subprocess.run([store_bin, "--state", state, "buy", COINS], check=True, stdout=subprocess.DEVNULL)
        wait_for("the page shows another purchase",
                 lambda: len(driver.find_elements(By.CSS_SELECTOR, "#transactions tbody tr")) == rows_before + 1, 3)
        for attempt in range(3):
            try:
                active = row(PRO, "active")
                if active.find_element(By.CSS_SELECTOR, 'select[name="reason"]').get_attribute("value") != "issue":
                    fail("a redraw of the table lost the chosen reason")
                active.find_element(By.CSS_SELECTOR, "button.refund").click()
                break
            except StaleElementReferenceException:
                if attempt == 2:
                    raise
        wait_for("the page shows the refund", lambda: row(PRO, "refunded"), 5)
        wait_for("the page confirms the refund", lambda: f"refunded transaction {pro_id}" in message(), 5)
        wait_for("the game prints revoked", lambda: f"event: revoked {PRO}" in game_output(), 5)
        refunded = row(PRO, "refunded")
        if not refunded.find_elements(By.CSS_SELECTOR, "button.refund") == []:
            fail("a refunded transaction still offers a refund")

        # The signed payload, decoded on demand, carries the revocation.
        refunded.find_element(By.CSS_SELECTOR, "button.payload").click()
        wait_for("the payload shows the revocation", lambda: '"revocationDate"' in driver.find_element(By.ID, "payload").text, 5)
        payload = driver.find_element(By.ID, "payload").text
        if not re.search(r'"revocationReason"\s*:\s*1\b', payload):
            fail("the payload lacks the chosen reason (1, an issue in the app): " + payload)

        # An App Store message raised with a click reaches the running game, which displays it at once.
        gold = driver.find_element(By.CSS_SELECTOR, f'#products tr[data-product="{GOLD}"]')
        gold.find_element(By.CSS_SELECTOR, "button.message").click()
        wait_for("the page confirms the message", lambda: f"price-increase message 1 about {GOLD} sent" in message(), 5)
        wait_for("the game prints the message, displayed", lambda: "event: App Store message 1 (reason 1), displayed: 0" in game_output(), 5)

        # At 1400 px no table scrolls sideways: every row, its actions included, fits its section.
        too_wide = driver.execute_script(
            "return [...document.querySelectorAll('section')].filter(s => s.scrollWidth > s.clientWidth + 1)"
            ".map(s => (s.querySelector('h2') || s).textContent + ': ' + s.scrollWidth + ' > ' + s.clientWidth)")
        if too_wide:
            fail(f"sections scroll sideways at 1400 px: {too_wide}")
        driver.execute_script("window.scrollTo(0, 0)")
        os.makedirs(os.path.dirname(os.path.abspath(screenshot)), exist_ok=True)
        driver.save_screenshot(screenshot)

        # Another site cannot use the page's controls: no token, no refund.
        request = urllib.request.Request(base + "api/control/clear", data=b"", method="POST",
                                         headers={"Content-Type": "application/x-www-form-urlencoded"})
        try:
            urllib.request.urlopen(request, timeout=5)
            fail("a control without the page's token was accepted")
        except urllib.error.HTTPError as error:
            if error.code != 403:
                fail(f"a control without the page's token got {error.code}, not 403")
        print(f"browser: the page showed the game's purchases, a command line purchase within {shown_after:.2f} s, kept a typed quantity through redraws, "
              f"refused bad input, refunded transaction {pro_id} (the game printed revoked) and its payload, raised an App Store "
              f"message the game displayed; "
              f"screenshot {screenshot}")
    finally:
        if driver:
            driver.quit()
        for process in processes:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()


if __name__ == "__main__":
    main()
