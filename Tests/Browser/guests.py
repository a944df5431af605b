#!/usr/bin/python3
"""Two guests use the party's page in headless chromium: guests.py URL CODE [--titles T1,T2,T3].

Guest "Ada" and guest "Bo <b>x</b>" (a name that is also markup) each open the page in a browser session of
their own, give their name and the room code (Ada by typing both, then reloading to see them kept; Bo by
following a link with ?code= and typing only the name), search, and ask for songs: Ada for two, then Bo for
one, so the fair order is Ada, Bo, Ada. Each must see their place; Bo's name must show as text. Ada then
cancels her second song. At every step the script reads both pages' queues and the server's own
(GET /api/queue), checks that they agree, and at the end prints one JSON object describing what it saw.

With --titles the three requests are for the songs with those titles (typed into the search box, the result
with that exact title chosen); without, for the first three songs the page lists. The queue must be empty at
the start (a song may be being sung). Any failure or timeout: a message on stderr and exit status 1. Both browsers are always quit and
their profiles removed.

Runs with Debian's python3-selenium, chromium and chromium-driver (make deps-test).
"""

import argparse
import json
import os
import shutil
import sys
import tempfile
import http.client
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# The longest any one wait may take, in seconds.
WAIT = 90
ADA = "Ada"
BO = "Bo <b>x</b>"
# A phone's width in CSS pixels: the page must fit it without scrolling sideways.
PHONE_WIDTH = 360

# One snapshot of a page's queue, read in one go so a repaint cannot fall between two reads.
READ_QUEUE = """
return Array.from(document.querySelectorAll('#queue li')).map(li => ({
  id: Number(li.dataset.id), position: Number(li.dataset.position), singer: li.dataset.singer,
  text: li.querySelector('.what').textContent, mine: li.classList.contains('mine'),
  cancel: li.querySelector('button.cancel') !== null,
  elements: li.querySelector('.what').children.length}));
"""


class Failure(Exception):
    """What went wrong, said on stderr."""


def check(condition, message):
    """Fails with `message` unless `condition` holds."""
    if not condition:
        raise Failure(message)


def wait(driver, what, condition):
    """The first true value of `condition(driver)` within WAIT seconds, or a Failure naming `what`."""
    try:
        return WebDriverWait(
            driver, WAIT, poll_frequency=0.05, ignored_exceptions=[StaleElementReferenceException]
        ).until(condition)
    except TimeoutException:
        raise Failure(f"timed out after {WAIT} s waiting for {what}") from None


def open_browser(folder, name):
    """A headless chromium with a private profile under `folder`, as narrow as a phone."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    # As root chromium needs --no-sandbox; /dev/shm may be small in a container.
    for argument in [
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--user-data-dir=" + os.path.join(folder, name),
        "--no-first-run", "--no-default-browser-check", "--disable-extensions",
        "--disable-sync", "--disable-background-networking", "--disable-component-update", "--proxy-server=direct://",
    ]:
        options.add_argument(argument)
    # A phone's screen: headless chromium's window is at least 500 px wide, so the width is emulated.
    options.add_experimental_option(
        "mobileEmulation", {"deviceMetrics": {"width": PHONE_WIDTH, "height": 800, "pixelRatio": 2}})
    service = Service(CHROMEDRIVER, log_path=os.path.join(folder, name + "-chromedriver.log"))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    return driver


def api_queue(url):
    """The server's own queue, GET /api/queue, past any proxy the environment names.

    On a loopback address the checks come from 127.0.0.2, so they do not spend the guests' allowance of
    requests a minute (the browsers reach the server from 127.0.0.1, as two phones behind one router would).
    """
    target = urllib.parse.urljoin(url, "/api/queue")
    parts = urllib.parse.urlsplit(target)
    if parts.hostname == "127.0.0.1":
        connection = http.client.HTTPConnection(
            parts.hostname, parts.port or 80, timeout=WAIT, source_address=("127.0.0.2", 0))
        try:
            connection.request("GET", parts.path)
            reply = connection.getresponse()
            if reply.status != 200:
                raise RuntimeError("GET /api/queue answered %d" % reply.status)
            return json.load(reply)
        finally:
            connection.close()
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(target, timeout=WAIT) as reply:
        return json.load(reply)


def text_of(driver, element_id):
    """The textContent of the element with `element_id`: exactly what the page put there."""
    return driver.find_element(By.ID, element_id).get_property("textContent")


def join(driver, url, name, code, type_code=True):
    """Opens the page and joins as `name` with `code` (typed, or already filled in from the link)."""
    driver.get(url)
    wait(driver, "the name box", lambda d: d.find_element(By.ID, "name").is_displayed())
    box = driver.find_element(By.ID, "name")
    box.clear()
    box.send_keys(name)
    if type_code:
        box = driver.find_element(By.ID, "code")
        box.clear()
        box.send_keys(code)
    driver.find_element(By.ID, "save").click()
    wait(driver, "the search box after joining", lambda d: d.find_element(By.ID, "search").is_displayed())
    check(text_of(driver, "me") == name, f"the page shows the guest as {text_of(driver, 'me')!r}, not {name!r}")


def choose(driver, title, index):
    """Finds a song (by exact `title` through the search box, or the `index`-th listed) and presses Sing this.

    Returns the song's id and title, and the request's id, place and the sentence the page showed.
    """
    before = driver.find_element(By.ID, "place").get_attribute("data-request")
    if title is not None:
        box = driver.find_element(By.ID, "search")
        box.clear()
        box.send_keys(title)

    def listed(d):
        results = d.find_element(By.ID, "results")
        if title is not None and results.get_attribute("data-query") != title.strip():
            return False
        items = d.find_elements(By.CSS_SELECTOR, "#results li.result")
        if title is not None:
            items = [item for item in items if item.get_attribute("data-title") == title]
            return items[0] if items else False
        return items[index] if len(items) > index else False

    item = wait(driver, f"the song {title!r} in the results" if title else f"result {index + 1}", listed)
    song = {"id": item.get_attribute("data-song"), "title": item.get_attribute("data-title")}
    item.find_element(By.CSS_SELECTOR, "button").click()

    def placed(d):
        place = d.find_element(By.ID, "place")
        request = place.get_attribute("data-request")
        if request and request != before:
            return int(request), int(place.get_attribute("data-position")), place.get_property("textContent")
        message = d.find_element(By.ID, "message")
        if message.get_attribute("class") == "error":
            raise Failure(f"asking for {song['title']!r} the page said: {message.get_property('textContent')}")
        return False

    request, position, sentence = wait(driver, f"the place of {song['title']!r}", placed)
    check(sentence == f"You are number {position} in the queue", f"the page said {sentence!r}")
    return {"song": song, "request": request, "place": position, "shown": sentence}


def page_queue(driver, expected_ids, who):
    """The page's queue once its requests are `expected_ids` in that order (the page polls every 10 s)."""
    def matches(d):
        queue = d.execute_script(READ_QUEUE)
        return queue if [item["id"] for item in queue] == expected_ids else False

    return wait(driver, f"{who}'s page to show the requests {expected_ids}", matches)


def compare(queue, server, me, who):
    """Checks a page's queue against the server's and the marks of the guest's own requests."""
    check(len(queue) == len(server["queue"]), f"{who}'s page shows {len(queue)} requests, the server {server}")
    for shown, item in zip(queue, server["queue"]):
        check(shown["position"] == item["position"], f"{who}'s page shows {shown} where the server has {item}")
        check(shown["singer"] == item["singer"], f"{who}'s page names {shown['singer']!r}, not {item['singer']!r}")
        check(shown["text"].startswith(item["singer"] + " \u2014 " + item["title"]), f"{who}'s page shows {shown}")
        check(shown["elements"] == 0, f"{who}'s page made markup of {shown['text']!r}")
        mine = item["singer"].strip().lower() == me.strip().lower()
        check(shown["mine"] == mine and shown["cancel"] == mine, f"{who}'s page marks {shown} wrongly")


def snapshot(drivers, server):
    """What each page and the server show now."""
    seen = {"server": server}
    for who, driver in drivers.items():
        seen[who] = {
            "queue": driver.execute_script(READ_QUEUE), "place": text_of(driver, "place"),
            "now": text_of(driver, "now"), "paused": driver.find_element(By.ID, "paused").is_displayed(),
        }
    return seen


def run(url, code, titles, folder):
    """The two guests' evening; returns what was seen."""
    report = {"url": url, "steps": []}
    drivers = {}
    try:
        drivers[ADA] = open_browser(folder, "ada")
        drivers[BO] = open_browser(folder, "bo")
        ada, bo = drivers[ADA], drivers[BO]
        check(api_queue(url)["queue"] == [], "the queue must be empty at the start")

        # Ada types both; after a reload the page remembers them, and Change shows them to edit.
        join(ada, url, ADA, code)
        ada.refresh()
        wait(ada, "the page to remember Ada", lambda d: d.find_element(By.ID, "search").is_displayed())
        check(text_of(ada, "me") == ADA, "the page did not remember Ada's name")
        ada.find_element(By.ID, "change").click()
        kept = [ada.find_element(By.ID, field).get_property("value") for field in ("name", "code")]
        check(kept == [ADA, code], f"Change shows {kept}, not the name and code given")
        ada.find_element(By.ID, "save").click()
        wait(ada, "the search box again", lambda d: d.find_element(By.ID, "search").is_displayed())

        # Bo follows the QR code's link: the code is filled in and leaves the address bar.
        bo.get(url + ("&" if "?" in url else "?") + "code=" + urllib.parse.quote(code))
        wait(bo, "the code from the link", lambda d: d.find_element(By.ID, "code").get_property("value") == code)
        check("code=" not in bo.current_url, f"the code stays in the address bar: {bo.current_url}")
        join(bo, bo.current_url, BO, code, type_code=False)
        report["steps"].append({"step": "joined", "ada": text_of(ada, "me"), "bo": text_of(bo, "me")})

        wanted = titles or [None, None, None]
        asks = [(ADA, wanted[0], 0), (ADA, wanted[1], 1), (BO, wanted[2], 2)]
        made = []
        for who, title, index in asks:
            asked = choose(drivers[who], title, index)
            server = api_queue(url)
            positions = {item["id"]: item["position"] for item in server["queue"]}
            check(positions.get(asked["request"]) == asked["place"],
                  f"{who} was shown place {asked['place']}, the server has {server}")
            made.append(asked["request"])
            report["steps"].append({"step": "asked", "singer": who, **asked, "server": server})

        server = api_queue(url)
        singers = [item["singer"] for item in server["queue"]]
        check(singers == [ADA, BO, ADA], f"the fair order is Ada, Bo, Ada; the server has {singers}")
        ids = [item["id"] for item in server["queue"]]
        for who, driver in drivers.items():
            compare(page_queue(driver, ids, who), server, who, who)
            now = server["now"]
            sung = f"Now singing: {now['singer']} \u2014 {now['title']}" if now else ""
            check(text_of(driver, "now") == sung, f"{who}'s page says {text_of(driver, 'now')!r}, not {sung!r}")
        # Ada's latest request moved from 2 to 3 when Bo joined the round: her page follows it.
        wait(ada, "Ada's place to become 3", lambda d: text_of(d, "place") == "You are number 3 in the queue")
        check(text_of(bo, "place") == "You are number 2 in the queue", f"Bo sees {text_of(bo, 'place')!r}")
        widths = {who: d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
                  for who, d in drivers.items()}
        for who, (scroll, inner) in widths.items():
            check(inner == PHONE_WIDTH, f"{who}'s window is {inner} px wide, not {PHONE_WIDTH}")
            check(scroll <= inner, f"{who}'s page is {scroll} px wide in a {inner} px window")
        report["widths"] = widths
        report["steps"].append({"step": "queued", **snapshot(drivers, server)})

        # Ada cancels her second song: Bo is next after her first.
        ada.find_element(By.CSS_SELECTOR, f'#queue li.mine[data-id="{made[1]}"] button.cancel').click()
        remaining = [made[0], made[2]]
        page_queue(ada, remaining, ADA)
        server = api_queue(url)
        check([item["id"] for item in server["queue"]] == remaining, f"after the cancel the server has {server}")
        check([item["singer"] for item in server["queue"]] == [ADA, BO], f"after the cancel: {server}")
        for who, driver in drivers.items():
            compare(page_queue(driver, remaining, who), server, who, who)
        check(text_of(ada, "place") == "", f"Ada's cancelled request still shows {text_of(ada, 'place')!r}")
        report["steps"].append({"step": "cancelled", "request": made[1], **snapshot(drivers, server)})
        return report
    finally:
        for driver in drivers.values():
            try:
                driver.quit()
            except WebDriverException:
                pass


def main():
    parser = argparse.ArgumentParser(description="Two guests use the party's page in headless chromium.")
    parser.add_argument("url", help="the page's address, such as http://127.0.0.1:8737/")
    parser.add_argument("code", help="the room code")
    parser.add_argument("--titles", help="three song titles, comma-separated: Ada's two, then Bo's")
    arguments = parser.parse_args()
    titles = None
    if arguments.titles:
        titles = [title.strip() for title in arguments.titles.split(",")]
        if len(titles) != 3 or not all(titles):
            parser.error("--titles needs three titles, comma-separated")
    folder = tempfile.mkdtemp(prefix="karaoke-guests-")
    try:
        report = run(arguments.url, arguments.code, titles, folder)
    except (Failure, WebDriverException, OSError, ValueError, KeyError) as error:
        print(f"guests.py: {type(error).__name__}: {error}".rstrip(), file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    json.dump(report, sys.stdout, ensure_ascii=False, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
