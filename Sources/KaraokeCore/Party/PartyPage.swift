/// The guests' page (DESIGN §22.3): one self-contained HTML document that `PartyAPI` serves at `/`.
///
/// Its style and script are inline and it refers to nothing else, so a phone on the party's network needs only
/// this server, and no other site learns who came. Every text from the server or a guest reaches the page through
/// `textContent`, never as markup. The tests in `PartyPageTests` check that it stays self-contained and small;
/// `PartyPageBrowserTests` drives it in a real browser.
public enum PartyPage {
    /// The page as UTF-8 text.
    public static let html: String = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Karaoke party</title>
        <style>
        :root { color-scheme: dark; }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 40rem; padding: 12px; background: #121212; color: #eee;
          font: 17px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
        h1 { font-size: 1.4rem; margin: 4px 0 12px; }
        h2 { font-size: 1.1rem; margin: 20px 0 6px; color: #bbb; }
        label { display: block; margin: 10px 0 4px; }
        input, button { font: inherit; min-height: 48px; border-radius: 10px; }
        input { width: 100%; padding: 0 12px; border: 1px solid #555; background: #222; color: #eee; }
        button { padding: 0 16px; border: 0; background: #3566d6; color: #fff; flex: none; }
        button:disabled { opacity: .5; }
        button.cancel { background: #a8322d; }
        #change { background: #333; margin-left: 8px; }
        #join button { margin-top: 12px; width: 100%; }
        ul, ol { list-style: none; margin: 0; padding: 0; }
        li { display: flex; align-items: center; gap: 10px; min-height: 56px; padding: 6px 8px;
          border-bottom: 1px solid #2b2b2b; }
        li .what { flex: 1; min-width: 0; overflow-wrap: anywhere; }
        li .pos { min-width: 2ch; color: #999; }
        li.mine { background: #1d3357; border-radius: 10px; }
        li.mine .pos { color: #fff; font-weight: bold; }
        #message { min-height: 1.4em; margin: 10px 0 0; }
        #message.error { color: #ff8a80; }
        #place { font-weight: bold; color: #8fe388; margin: 6px 0 0; }
        #paused { color: #ffc46b; font-weight: bold; }
        #now { font-size: 1.1rem; }
        #me { overflow-wrap: anywhere; }
        [hidden] { display: none !important; }
        </style>
        </head>
        <body>
        <h1>Karaoke party</h1>
        <form id="join" hidden>
        <label for="name">Your name</label>
        <input id="name" maxlength="64" autocomplete="nickname" autocapitalize="words">
        <label for="code">Room code</label>
        <input id="code" inputmode="numeric" autocomplete="off">
        <button id="save" type="submit">Let me sing</button>
        </form>
        <section id="guest" hidden>
        <p>Singing as <strong id="me"></strong><button id="change" type="button">Change</button></p>
        <label for="search">Find a song</label>
        <input id="search" type="search" placeholder="Title or artist" autocomplete="off" enterkeyhint="search">
        <ul id="results"></ul>
        </section>
        <p id="message" role="status" aria-live="polite"></p>
        <p id="place" aria-live="polite"></p>
        <h2>The queue</h2>
        <p id="paused" hidden>Requests are paused by the host</p>
        <p id="now"></p>
        <ol id="queue"></ol>
        <p id="empty" hidden>Nobody is waiting: be the first!</p>
        <script>
        "use strict";
        /* Every piece of text from the server or a guest goes in through textContent, never as markup. */
        const $ = (id) => document.getElementById(id);
        const guest = { name: read("party-name"), code: read("party-code") };
        let placeOf = 0;
        let searchTimer = 0;
        let searchCount = 0;
        let pollTimer = 0;
        let pollCount = 0;

        function read(key) {
          try { return localStorage.getItem(key) || ""; } catch (e) { return ""; }
        }
        function keep(key, value) {
          try { localStorage.setItem(key, value); } catch (e) { /* private mode: kept for this visit only */ }
        }
        /* The server's idea of one singer: case and runs of white space do not matter. */
        function singerKey(text) {
          return text.trim().toLowerCase().replace(/\s+/g, " ");
        }
        function make(tag, className, text) {
          const element = document.createElement(tag);
          if (className) element.className = className;
          if (text !== undefined) element.textContent = text;
          return element;
        }
        function say(text, isError) {
          $("message").textContent = text;
          $("message").className = isError ? "error" : "";
        }
        async function call(method, path, body) {
          const options = { method: method, headers: {} };
          if (body) {
            options.headers["Content-Type"] = "application/json";
            options.body = JSON.stringify(body);
          }
          let reply;
          try { reply = await fetch(path, options); } catch (e) {
            throw Object.assign(new Error("Cannot reach the party right now"), { status: 0 });
          }
          let data = null;
          try { data = await reply.json(); } catch (e) { /* not JSON: the status says enough */ }
          if (!reply.ok) {
            const text = data && typeof data.error === "string" ? data.error : "The server said " + reply.status;
            throw Object.assign(new Error(text), { status: reply.status });
          }
          return data;
        }

        function showJoin() {
          $("name").value = guest.name;
          $("code").value = guest.code;
          $("join").hidden = false;
          $("guest").hidden = true;
          $(guest.name ? "code" : "name").focus();
        }
        function showGuest() {
          $("me").textContent = guest.name;
          $("join").hidden = true;
          $("guest").hidden = false;
          search();
        }
        $("join").addEventListener("submit", (event) => {
          event.preventDefault();
          const name = $("name").value.trim();
          const code = $("code").value.trim();
          const length = Array.from(name).length;
          if (length < 1 || length > 32) return say("Your name must be 1 to 32 characters", true);
          if (!code) return say("Type the room code shown on the screen", true);
          guest.name = name;
          guest.code = code;
          keep("party-name", name);
          keep("party-code", code);
          say("");
          showGuest();
          poll();
        });
        $("change").addEventListener("click", showJoin);

        $("search").addEventListener("input", () => {
          clearTimeout(searchTimer);
          searchTimer = setTimeout(search, 250);
        });
        async function search() {
          const count = ++searchCount;
          const query = $("search").value.trim();
          let data;
          try {
            data = await call("GET", "/api/songs?q=" + encodeURIComponent(query) + "&limit=20");
          } catch (e) {
            if (count === searchCount) say(e.message, true);
            return;
          }
          if (count !== searchCount) return;
          const list = $("results");
          list.replaceChildren();
          list.dataset.query = query;
          for (const song of data.songs) {
            const item = make("li", "result");
            item.dataset.song = song.id;
            item.dataset.title = song.title;
            item.append(make("span", "what", song.artist ? song.title + " \u2014 " + song.artist : song.title));
            const button = make("button", "sing", "Sing this");
            button.type = "button";
            button.addEventListener("click", () => ask(song, button));
            item.append(button);
            list.append(item);
          }
          if (!data.songs.length) list.append(make("li", "none", "No song matches"));
        }
        async function ask(song, button) {
          button.disabled = true;
          try {
            const data = await call("POST", "/api/requests", { code: guest.code, singer: guest.name, song: song.id });
            placeOf = data.request.id;
            showPlace(data.request.position);
            say("You asked for " + song.title);
          } catch (e) {
            say(e.message, true);
          } finally {
            button.disabled = false;
          }
          poll();
        }
        /* The place of the guest's latest request, kept up to date as the queue moves. */
        function showPlace(position) {
          const place = $("place");
          place.dataset.request = position ? placeOf : "";
          place.dataset.position = position || "";
          place.textContent = position ? "You are number " + position + " in the queue" : "";
        }
        async function cancel(item, button) {
          button.disabled = true;
          try {
            await call("DELETE", "/api/requests/" + item.id, { code: guest.code, singer: guest.name });
            say("Cancelled " + item.title);
          } catch (e) {
            say(e.message, true);
            button.disabled = false;
          }
          poll();
        }

        /* The queue every 10 s while the page is shown (6 of the 30 requests a minute an address may make), at once
           after a change and when the page is shown again; a reply to an older poll is dropped. */
        async function poll() {
          clearTimeout(pollTimer);
          if (document.hidden) { pollTimer = setTimeout(poll, 10000); return; }
          const count = ++pollCount;
          let wait = 10000;
          try {
            const data = await call("GET", "/api/queue");
            if (count === pollCount) showQueue(data);
          } catch (e) {
            /* Too many requests: stay quiet long enough for the server's window to let the guest in again. */
            if (e.status === 429) wait = 15000;
          }
          if (count === pollCount) pollTimer = setTimeout(poll, wait);
        }
        document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
        function showQueue(data) {
          $("paused").hidden = !data.paused;
          $("now").textContent = data.now ? "Now singing: " + data.now.singer + " \u2014 " + data.now.title : "";
          const me = singerKey(guest.name);
          const list = $("queue");
          list.replaceChildren();
          let latest = 0;
          for (const request of data.queue) {
            const item = make("li");
            item.dataset.id = request.id;
            item.dataset.position = request.position;
            item.dataset.singer = request.singer;
            item.append(make("span", "pos", request.position + "."));
            const song = request.artist ? request.title + " (" + request.artist + ")" : request.title;
            item.append(make("span", "what", request.singer + " \u2014 " + song));
            if (me && singerKey(request.singer) === me) {
              item.classList.add("mine");
              const button = make("button", "cancel", "Cancel");
              button.type = "button";
              button.addEventListener("click", () => cancel(request, button));
              item.append(button);
              if (request.id === placeOf) latest = request.position;
            }
            list.append(item);
          }
          $("empty").hidden = data.queue.length > 0;
          showPlace(latest);
        }

        const fromLink = new URLSearchParams(location.search).get("code");
        if (fromLink) {
          guest.code = fromLink.trim();
          keep("party-code", guest.code);
          /* The code came in the QR code's link; keep it out of the address bar, shared screenshots and history. */
          history.replaceState(null, "", location.pathname);
        }
        if (guest.name && guest.code) showGuest(); else showJoin();
        poll();
        </script>
        </body>
        </html>
        """#
}
