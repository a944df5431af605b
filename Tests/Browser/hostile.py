#!/usr/bin/env python3
"""Hostile guests against a party's server: hostile.py URL CODE SONG_ID.

From 100 connections at once (a hundred loopback addresses, so the rate limit is not what stops them): bodies
over 4 KB, bodies that are not JSON, wrong codes, names with escape sequences and HTML, paths and escapes in
ids, unknown paths and methods, and clients that send half a request and stall. Prints one JSON object of the
statuses seen; exits non-zero when a reply is not one the API gives, or a connection hangs past its time.
"""

import json
import socket
import sys
import threading
import time
import urllib.parse

TIMEOUT = 30


def exchange(host, port, source, raw, read=True):
    """Sends `raw` from `source` and returns the reply's status (0 when the server closed without one); without
    `read`, holds the connection silent for a few seconds instead."""
    with socket.create_connection((host, port), timeout=TIMEOUT, source_address=(source, 0)) as connection:
        connection.sendall(raw)
        if not read:
            time.sleep(5)
            return None
        reply = b""
        while b"\r\n" not in reply:
            chunk = connection.recv(4096)
            if not chunk:
                return 0
            reply += chunk
        return int(reply.split(b" ", 2)[1])


def request(method, path, body=None):
    data = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    head = f"{method} {path} HTTP/1.1\r\nHost: party\r\nContent-Type: application/json\r\n"
    head += f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
    return head.encode() + data


def main():
    url, code, song = sys.argv[1], sys.argv[2], sys.argv[3]
    parts = urllib.parse.urlsplit(url)
    host, port = parts.hostname, parts.port
    hostile = [
        request("POST", "/api/requests", b"x" * 5000),
        request("POST", "/api/requests", b"{not json"),
        request("POST", "/api/requests", {"code": "0000", "singer": "Mallory", "song": song}),
        request("POST", "/api/requests", {"code": code, "singer": "\x1b[31mRed\x1b]0;pwned\x07", "song": song}),
        request("POST", "/api/requests", {"code": code, "singer": "<script>alert(1)</script>", "song": song}),
        request("POST", "/api/requests", {"code": code, "singer": "Eve", "song": "../../../etc/passwd"}),
        request("DELETE", "/api/requests/..%2f..%2fetc", {"code": code, "singer": "Eve"}),
        request("GET", "/../../etc/passwd"),
        request("GET", "/api/songs?q=%ZZ"),
        request("PUT", "/api/queue"),
        request("GET", "/api/songs?q=" + "a" * 3000),
    ]
    statuses = [None] * 100
    problems = []

    def guest(index):
        source = f"127.0.1.{index + 1}"
        try:
            if index % 10 == 9:
                # Half a request, then silence: the server drops it after its idle time.
                exchange(host, port, source, b"POST /api/requests HTTP/1.1\r\nContent-Length: 100\r\n\r\n{", read=False)
                statuses[index] = "stalled"
            else:
                statuses[index] = exchange(host, port, source, hostile[index % len(hostile)])
        except Exception as error:  # noqa: BLE001 - every failure is reported
            problems.append(f"guest {index}: {error!r}")

    threads = [threading.Thread(target=guest, args=(index,)) for index in range(100)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT + 5)
    allowed = {200, 201, 400, 403, 404, 405, 409, 413, 429, 503, 0, "stalled"}
    unexpected = [status for status in statuses if status not in allowed]
    # The server answered each kind as the API says: a dead or silent server would give none of these.
    missing = {201, 400, 403, 404, 405, 413} - set(statuses)
    if missing:
        problems.append(f"no reply with status {sorted(missing)}")
    print(json.dumps({"statuses": statuses, "problems": problems}))
    if problems or unexpected:
        print(f"hostile.py: unexpected replies {unexpected}, problems {problems}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
