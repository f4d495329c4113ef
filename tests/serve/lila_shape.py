#!/usr/bin/env python3
"""Holds a running `bookforge serve` to lila_explorer_shape.txt, the fields and statuses of
lichess's explorer as its source writes them (the file says where from).

  lila_shape.py FIXTURE URL QUERY...   asks /masters and /lichess each QUERY; every field of
                                       every answer must have the fixture's type and presence,
                                       every field the fixture names must be there when it
                                       says so, and each status line must be answered so

Where bookforge answers otherwise on purpose (README.md, "Where bookforge's explorer API
differs from lichess"), DEVIATIONS says so; nothing else may differ. Run by serve_e2e_test.cpp.
Prints one summary line; exits 1 with every failure listed.
"""
import json
import re
import sys
import urllib.error
import urllib.request

# (endpoint, field): the presence bookforge has instead of lila's, each a row of the README's table.
DEVIATIONS = {
    # A PGN game may have no Elo or no date; lichess's always have both.
    ("*", "GAME.white.rating"): "optional",
    ("*", "GAME.black.rating"): "optional",
    ("*", "GAME.year"): "optional",
    # speed and mode come from lichess's Event names: a game from elsewhere has neither.
    ("lichess", "GAME.speed"): "optional",
    ("lichess", "GAME.mode"): "optional",
    # Our figures, kept at lichess's names (lila fills them on /player only).
    ("*", "moves[].averageOpponentRating"): "optional",
    ("*", "moves[].performance"): "optional",
    # The PGN month of a game may be unknown.
    ("lichess", "GAME.month"): "nullable",
}
# Our own fields: `bookforge` anywhere, and a move's `games` (with the games without a result).
OURS = re.compile(r"(^|\.)bookforge$|^moves\[\]\.games$")

TYPES = {
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "color": lambda v: v in ("white", "black"),
    "id": lambda v: isinstance(v, str) and re.fullmatch(r"[0-9A-Za-z]{8}", v) is not None,
    "speed": lambda v: v in ("ultraBullet", "bullet", "blitz", "rapid", "classical", "correspondence"),
    "mode": lambda v: v in ("rated", "casual"),
    "month": lambda v: isinstance(v, str) and re.fullmatch(r"\d{4}-\d{2}", v) is not None,
}
GAME_LISTS = ("topGames[]", "recentGames[]", "moves[].game")


def read_fixture(path):
    fields, statuses = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if words[0] == "status":
                statuses.append((words[1], int(words[2])))
            else:
                endpoint, field, kind, presence = words
                fields.setdefault(endpoint, {})[field] = (kind, presence)
    return fields, statuses


def rule(fields, endpoint, field):
    """The (type, presence) of a concrete field path: GAME stands for each game list."""
    generic = field
    for prefix in GAME_LISTS:
        if field == prefix or field.startswith(prefix + "."):
            generic = "GAME" + field[len(prefix):]
            break
    found = fields[endpoint].get(field) or fields[endpoint].get(generic)
    if found is None:
        return None
    kind, presence = found
    for key in ((endpoint, generic), ("*", generic)):
        presence = DEVIATIONS.get(key, presence)
    return kind, presence


def check(fields, endpoint, value, path, failures):
    """Every key of `value` (an object at `path`) against the fixture, and down."""
    prefix = path + "." if path else ""
    expected = {}
    for field in fields[endpoint]:
        names = [field]
        if field.startswith("GAME"):
            names = [g + field[4:] for g in GAME_LISTS]
        for name in names:
            if name.startswith(prefix) and "." not in name[len(prefix):] and name != path:
                expected[name[len(prefix):]] = name
    for key, item in value.items():
        field = prefix + key
        if OURS.search(field):
            continue
        found = rule(fields, endpoint, field)
        if found is None:
            failures.append("%s: %s: a field lichess does not have" % (endpoint, field))
            continue
        kind, presence = found
        if presence == "absent":
            failures.append("%s: %s: lichess never has it here" % (endpoint, field))
        elif item is None:
            if presence != "nullable":
                failures.append("%s: %s: null, which lichess never writes here" % (endpoint, field))
        elif not TYPES[kind](item):
            failures.append("%s: %s: %r is not %s" % (endpoint, field, item, kind))
        elif isinstance(item, dict):
            check(fields, endpoint, item, field, failures)
        elif isinstance(item, list):
            for element in item:
                if isinstance(element, dict):
                    check(fields, endpoint, element, field + "[]", failures)
    for key, field in expected.items():
        found = rule(fields, endpoint, field)
        if found and found[1] in ("required", "nullable") and key not in value:
            failures.append("%s: %s: missing" % (endpoint, field))


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        sys.exit(2)
    fields, statuses = read_fixture(sys.argv[1])
    base = sys.argv[2].rstrip("/")
    failures = []
    answers = 0
    for query in sys.argv[3:]:
        for endpoint in ("masters", "lichess"):
            status, body = get("%s/%s?%s" % (base, endpoint, query))
            if status != 200:
                failures.append("%s?%s: status %d" % (endpoint, query, status))
                continue
            check(fields, endpoint, json.loads(body), "", failures)
            answers += 1
    for target, want in statuses:
        status, _ = get(base + target)
        if status != want:
            failures.append("%s: status %d, lichess answers %d" % (target, status, want))
    if failures:
        print("FAIL: " + "\n".join(sorted(set(failures))))
        sys.exit(1)
    print("lila shape: %d answers and %d statuses as lichess's" % (answers, len(statuses)))


main()
