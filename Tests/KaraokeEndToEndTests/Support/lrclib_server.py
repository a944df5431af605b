#!/usr/bin/env python3
"""A local LRCLIB-compatible server for karaoke's tests: the same paths and JSON as lrclib.net's API.

Started by the end-to-end tests on 127.0.0.1 and a free port, which it prints on its first line of stdout;
stopped by them when done. What it answers depends on the track name asked for (a case name):

  found         /api/get: timed lyrics          fallback  /api/get: 404; /api/search: three candidates
  instrumental  /api/get: instrumental: true    plain     /api/get: untimed lyrics only
  slow          never answers in time           error500  HTTP 500            limited   HTTP 429
  malformed     a body that is not JSON         huge      a 3 MB answer       escapes   lyrics with escape
  agent         timed lyrics naming the caller's User-Agent                               and bidi controls
  delayed       timed lyrics after 2 s (play --fetch shows "looking up…" meanwhile)
  anything else /api/get: 404; /api/search: []  (no lyrics found)

Every request is logged as one line on stderr: the path and query as received.
"""

import json
import os
import signal
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SYNCED = "[00:01.00]first line of the found song\n[00:03.50]second line\n[00:06.00]third line\n"


def record(id, track, synced=None, plain=None, duration=200.0, album="Test Album", instrumental=False):
    """One song as LRCLIB describes it."""
    return {
        "id": id,
        "name": track,
        "trackName": track,
        "artistName": "Test Artist",
        "albumName": album,
        "duration": duration,
        "instrumental": instrumental,
        "plainLyrics": plain,
        "syncedLyrics": synced,
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):
        pass

    def send(self, status, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def not_found(self):
        self.send(404, {"code": 404, "name": "TrackNotFound", "message": "Failed to find specified track"})

    def do_GET(self):
        sys.stderr.write(self.path + "\n")
        sys.stderr.flush()
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        track = query.get("track_name", [""])[0]
        if url.path == "/api/get":
            self.answer_get(track)
        elif url.path == "/api/search":
            self.answer_search(track)
        else:
            self.not_found()

    def answer_get(self, track):
        if track == "found":
            self.send(200, record(11, track, synced=SYNCED, plain="first line\nsecond line\n"))
        elif track == "instrumental":
            self.send(200, record(12, track, instrumental=True))
        elif track == "plain":
            self.send(200, record(13, track, plain="a plain line\r\nanother plain line\n"))
        elif track == "slow":
            time.sleep(30)
            self.send(200, record(14, track, synced=SYNCED))
        elif track == "delayed":
            time.sleep(2)
            self.send(200, record(19, track, synced=SYNCED))
        elif track == "error500":
            self.send(500, b"internal error", "text/plain")
        elif track == "limited":
            self.send(429, {"code": 429, "name": "TooManyRequests", "message": "slow down"})
        elif track == "malformed":
            self.send(200, b'{"id": 15, "trackName": "malformed", ', "text/plain")
        elif track == "huge":
            self.send(200, record(16, track, synced="[00:01.00]" + "x" * (3 * 1024 * 1024) + "\n"))
        elif track == "escapes":
            lyrics = "[00:01.00]red \u001b[31mtext\u001b[0m here\n[00:02.00]\u202emirrored\u202c words\u0007\n"
            self.send(200, record(17, track, synced=lyrics))
        elif track == "agent":
            agent = self.headers.get("User-Agent", "")
            self.send(200, record(18, track, synced="[00:01.00]" + agent + "\n"))
        else:
            self.not_found()

    def answer_search(self, track):
        if track == "fallback":
            self.send(200, [
                record(31, track, plain="only plain words\n", duration=201.0, album="Plain Album"),
                record(32, track, synced="[00:01.00]far version\n", duration=230.0, album="Live"),
                record(33, track, synced="[00:01.00]close version\n", duration=201.0, album="Studio"),
            ])
        else:
            self.send(200, [])


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that gives up (the size limit, the time limit) resets its connection: expected here.
        pass


def main():
    # Started from a test process that runs others at the same time, this process may have inherited the
    # write ends of their pipes; holding them would keep those readers from ever seeing end of file.
    os.closerange(3, os.sysconf("SC_OPEN_MAX"))
    # The test's thread may have blocked signals, and a child inherits the mask: unblock them so SIGTERM
    # stops the server.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    server = Server(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
