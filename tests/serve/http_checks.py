#!/usr/bin/env python3
"""HTTP checks of a running `bookforge serve`, with Python's own HTTP client (http.client,
urllib): a client nobody on this project wrote. Run by tests/serve/serve_e2e_test.cpp.

  http_checks.py property URL COUNT SEED   random query strings at every endpoint: each answer
                                           must be JSON with status 200, 400 or 404
  http_checks.py hostile URL               malformed and oversized requests, path traversal:
                                           each gets a 4xx JSON error, and the server goes on
  http_checks.py same URL QUERY            /api/explorer, /explorer, /masters and /lichess
                                           answer QUERY alike, but for lichess's differences
                                           between its paths (urllib)

Prints one summary line; exits 1 with the first failure described.
"""
import http.client
import json
import random
import socket
import sys
import urllib.parse
import urllib.request

ENDPOINTS = ["/api/explorer", "/explorer", "/masters", "/lichess", "/api/position", "/api/books",
             "/api/game", "/api/info", "/api/engine"]
KEYS = ["fen", "play", "moves", "topGames", "recentGames", "speeds", "ratings", "since", "until",
        "variant", "history", "depth", "movetime", "id"]
VALUES = ["", "0", "1", "12", "-1", "99999999999999999999", "1e3", "0x10", "e2e4", "e2e4,c7c5",
          "e2e4,e7e5,g1f3", "e2e4,", ",", "e7e5", "a7a8q", "e1g1", "e1h1", "blitz", "blitz,rapid",
          "2200,2500", "1500", "2015-01", "2015/01", "2015-13", "standard", "atomic", "chess", "chess960",
          "fromPosition", "true",
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", "8/8/8/8/8/8/8/8 w - - 0 1",
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "k7/8/8/8/8/8/8/7K w - - 0 1"]


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def host_port(url):
    parsed = urllib.parse.urlsplit(url)
    return parsed.hostname, parsed.port


class Client:
    """One kept-alive connection, reopened when the server closes it."""

    def __init__(self, url):
        self.host, self.port = host_port(url)
        self.connection = None

    def get(self, target):
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
            try:
                self.connection.putrequest("GET", target, skip_accept_encoding=True)
                self.connection.endheaders()
                response = self.connection.getresponse()
                body = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.connection.close()
                    self.connection = None
                return response.status, response.getheader("Content-Type", ""), body
            except (http.client.HTTPException, ConnectionError):
                self.connection.close()
                self.connection = None
                if attempt == 1:
                    raise


def random_text(rng):
    kind = rng.randrange(5)
    if kind == 0:
        return urllib.parse.quote(rng.choice(VALUES), safe="")
    if kind == 1:  # random bytes, percent-escaped
        return "".join("%%%02X" % rng.randrange(256) for _ in range(rng.randrange(12)))
    if kind == 2:  # broken or odd escapes
        return rng.choice(["%", "%z", "%zz", "%0", "%%", "%00", "%C3%28", "%E2%82", "+", "%2C%2C"])
    if kind == 3:  # printable ASCII a URL may carry as is
        alphabet = "abcdefgh12345678KQRBNPkqrbnp/-_.,~!*'()"
        return "".join(rng.choice(alphabet) for _ in range(rng.randrange(20)))
    return urllib.parse.quote("".join(chr(rng.randrange(0x20, 0x2FF)) for _ in range(rng.randrange(8))), safe="")


def random_query(rng):
    parts = []
    for _ in range(rng.randrange(6)):
        key = rng.choice(KEYS) if rng.random() < 0.7 else random_text(rng)
        parts.append(key + ("=" + random_text(rng) if rng.random() < 0.9 else ""))
    separator = rng.choice(["&", "&", "&", ";", "&&"])
    return separator.join(parts)


def check_json_answer(target, status, content_type, body, allowed):
    if status not in allowed:
        fail("%s: status %d (%r)" % (target, status, body[:200]))
    if not content_type.startswith("application/json"):
        fail("%s: Content-Type %r" % (target, content_type))
    try:
        parsed = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        fail("%s: not JSON (%s): %r" % (target, e, body[:200]))
    if status != 200 and not isinstance(parsed.get("error"), str):
        fail("%s: status %d without an error message: %r" % (target, status, body[:200]))
    return parsed


def alive(url):
    status, content_type, body = Client(url).get("/api/info")
    check_json_answer("/api/info", status, content_type, body, {200})


def property_test(url, count, seed):
    rng = random.Random(seed)
    client = Client(url)
    statuses = {}
    for _ in range(count):
        endpoint = rng.choice(ENDPOINTS)
        # The engine is bounded by the server, but a quick one keeps the run short: the first
        # value of a parameter is the one read.
        prefix = "depth=1&movetime=5&" if endpoint == "/api/engine" else ""
        target = endpoint + "?" + prefix + random_query(rng)
        status, content_type, body = client.get(target)
        check_json_answer(target, status, content_type, body, {200, 400, 404})
        statuses[status] = statuses.get(status, 0) + 1
    alive(url)
    print("property: %d requests, statuses %s, server alive" %
          (count, " ".join("%d=%d" % item for item in sorted(statuses.items()))))


def raw_exchange(url, data):
    """Sends bytes on a fresh connection; the status, type and body of the answer."""
    host, port = host_port(url)
    with socket.create_connection((host, port), timeout=30) as s:
        try:
            s.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may answer and close before reading everything
        answer = b""
        length = None
        while length is None or len(answer) < length:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            answer += chunk
            if length is None and b"\r\n\r\n" in answer:
                head = answer.split(b"\r\n\r\n", 1)[0]
                for line in head.split(b"\r\n")[1:]:
                    if line.lower().startswith(b"content-length:"):
                        length = len(head) + 4 + int(line.split(b":", 1)[1])
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    if not lines[0].startswith(b"HTTP/1.1 "):
        fail("no HTTP answer to %r...: %r" % (data[:60], answer[:200]))
    status = int(lines[0].split()[1])
    content_type = ""
    for line in lines[1:]:
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-type":
            content_type = value.strip()
    return status, content_type, body


def hostile(url):
    cases = [
        ("malformed request line", b"GARBAGE\r\n\r\n"),
        ("binary request line", b"\x00\x01\x02 / HTTP/9\r\n\r\n"),
        ("request line without version", b"GET /api/info\r\n\r\n"),
        ("huge request line", b"GET /api/explorer?fen=" + b"x" * 100000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"),
        ("huge header", b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"y" * 100000 + b"\r\n\r\n"),
        ("huge body", b"POST /api/explorer HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10000000\r\n\r\n" + b"z" * 1000000),
        ("path traversal", b"GET /../../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
        ("path traversal under vendor", b"GET /vendor/../../x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
        ("escaped path traversal", b"GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
        ("unknown method", b"BREW /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
    ]
    for name, data in cases:
        status, content_type, body = raw_exchange(url, data)
        check_json_answer(name, status, content_type, body, set(range(400, 500)))
        alive(url)
        print("hostile: %s: %d %s" % (name, status, body.decode("utf-8")))


def common_part(answer):
    """What every explorer path answers alike: /masters has no recentGames, and only /lichess
    and ours give a game's speed and mode (lichess's masters have neither)."""
    answer.pop("recentGames", None)
    for game in answer["topGames"] + [move["game"] for move in answer["moves"] if move["game"]]:
        game.pop("speed", None)
        game.pop("mode", None)
    return json.dumps(answer, sort_keys=True)


def same(url, query):
    bodies = {}
    for path in ["/api/explorer", "/explorer", "/masters", "/lichess"]:
        with urllib.request.urlopen(url.rstrip("/") + path + "?" + query, timeout=30) as response:
            bodies[path] = common_part(json.loads(response.read()))
    if len(set(bodies.values())) != 1:
        fail("the explorer paths differ: %r" % bodies)
    print("same: %d bytes in common from each explorer path" % len(bodies["/api/explorer"]))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "property":
        property_test(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) == 3 and sys.argv[1] == "hostile":
        hostile(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "same":
        same(sys.argv[2], sys.argv[3])
    else:
        print(__doc__)
        sys.exit(2)


main()
