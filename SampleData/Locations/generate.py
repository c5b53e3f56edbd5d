#!/usr/bin/env python3
"""Deterministic generator for the Locations/Checkins sample dumps.

Writes (relative to this file's directory):

    locations.csv            ~500 Locations (RFC 4180 CSV, LF line endings, header row)
    checkins.ndjson          3000 Checkins, one JSON object per line (chk-000001 ...)
    checkins.json            1000 more Checkins as one pretty-printed JSON array (chk-100001 ...)
    bad/locations-bad.csv    good Locations mixed with one bad record per reject rule
    bad/checkins-bad.ndjson  good Checkins mixed with one bad record per reject rule
    bad/README.md            the expected rejects (file, line, key, stage, reason)
    bad/expected-locations.txt  what the store must hold for the good Locations of the bad dump
    bad/expected-checkins.txt   what the store must hold for the good Checkins of the bad dump

The two expected-*.txt files are golden outputs of the sqlite3 CLI (list mode, '|' separator)
over the store after importing the bad dump (first import, so version is 1 everywhere):

    sqlite3 -separator '|' STORE "SELECT locationId, name, latitude, longitude, createdAt, \
        active, rating, visits, version FROM \"AWS-Locations\" ORDER BY locationId"
    sqlite3 -separator '|' STORE "SELECT checkinId, locationId, checkinTime, comment, \
        rating, version FROM Checkin ORDER BY checkinId"

They are computed here from the good records' source values with the storage rules of
docs/values.md (not by running the importer). NULL prints as an empty field; a name containing a
newline is printed raw by sqlite3, so such a record spans two lines of the golden file.

Standard library only, fixed seed, explicit UTF-8 and newline handling: every run produces
byte-identical files, so the outputs can be committed and regenerated at will:

    python3 SampleData/Locations/generate.py
"""

import json
import os
import random
import re
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
BAD = os.path.join(HERE, "bad")

SEED = 20240501
N_LOCATIONS = 500
N_CHECKINS_NDJSON = 3000
N_CHECKINS_JSON = 1000

LOCATION_HEADER = ["locationId", "name", "latitude", "longitude", "createdAt",
                   "active", "rating", "visits"]


# ---------------------------------------------------------------------------------------
# CSV / JSON encoding helpers (hand-rolled so the exact bytes are under our control)
# ---------------------------------------------------------------------------------------

def csv_field(value, force_quote=False):
    """RFC 4180 quoting. None -> empty unquoted cell (a null with nullValues [""])."""
    if value is None:
        return ""
    if value == "":
        raise ValueError("empty strings are ambiguous with null; use None")
    if force_quote or any(c in value for c in ',"\r\n'):
        return '"' + value.replace('"', '""') + '"'
    return value


def csv_row(values, force_quote=()):
    return ",".join(csv_field(v, i in force_quote) for i, v in enumerate(values)) + "\n"


def json_obj(obj, ascii_escapes=False, compact=True):
    if compact:
        return json.dumps(obj, ensure_ascii=ascii_escapes, separators=(",", ":"))
    return json.dumps(obj, ensure_ascii=ascii_escapes)


def write_text(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def write_bytes(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


# ---------------------------------------------------------------------------------------
# Value generators
# ---------------------------------------------------------------------------------------

def fmt_coord(rng, lo, hi):
    """A double within [lo, hi] with 1..6 decimals; never '-0.0…'."""
    while True:
        decimals = rng.randint(1, 6)
        text = f"{rng.uniform(lo, hi):.{decimals}f}"
        if float(text) != 0.0 and lo <= float(text) <= hi:
            return text


def fmt_date(rng, dt):
    """One of the valid ISO-8601 forms: Z, Z with milliseconds, or a numeric offset."""
    dt = dt.replace(microsecond=0)
    form = rng.random()
    if form < 0.45:
        return dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    if form < 0.75:
        ms = rng.randint(0, 999)
        return dt.strftime("%Y-%m-%dT%H:%M:%S") + f".{ms:03d}Z"
    total = rng.choice([120, -300, 330, 0, 540, -210])     # offset in minutes
    local = dt.astimezone(timezone(timedelta(minutes=total)))
    tz = f"{'+' if total >= 0 else '-'}{abs(total) // 60:02d}:{abs(total) % 60:02d}"
    frac = f".{rng.randint(0, 999):03d}" if rng.random() < 0.3 else ""
    return local.strftime("%Y-%m-%dT%H:%M:%S") + frac + tz


def random_dt(rng, start, days):
    return start + timedelta(seconds=rng.randint(0, days * 86400 - 1))


ADJECTIVES = ["Golden", "Blue", "Old", "Little", "Corner", "Sunny", "Green", "Royal",
              "Hidden", "Urban", "Rustic", "Silver", "Happy", "Quiet", "Grand", "Lucky"]
NOUNS = ["Bakery", "Bistro", "Café", "Diner", "Tavern", "Kitchen", "Grill", "Brewery",
         "Tea House", "Noodle Bar", "Pizzeria", "Deli", "Market", "Roastery", "Pub", "Taquería"]
CITIES = ["Zürich", "São Paulo", "Kraków", "Malmö", "Reykjavík", "Montréal", "Köln",
          "Sevilla", "Oslo", "Porto", "Québec", "Brno", "Lyon", "Austin", "Osaka", "Łódź"]
EMOJI = ["☕", "🍕", "🍜", "🥐", "🍺", "🌮", "🍣", "🍩", "🧁", "🥨"]

# Hand-picked tricky names, placed at fixed row indices of locations.csv.
SPECIAL_NAMES = {
    0: "Café Zoë ☕",
    1: '🍕 Pizza, "Best" in town',
    2: 'The "Quoted" Bar',
    3: '"Big" Al\'s Diner',
    4: "Smith, Jones & Co.",
    5: "Line one\nLine two",
    6: "Harbour View\r\nSuite 2",                # CRLF inside a quoted field
    7: "Crème Brûlée Corner",
    8: "東京ラーメン 一番",
    9: "Ελληνική Ταβέρνα",
    10: "Кафе «Москва»",
    11: "👨‍👩‍👧 Family Diner",                         # ZWJ emoji sequence
    12: "Cafe\u0301 Decomposed",                 # e + combining acute (NFD), kept as is
    13: "Multi\nline\n\"quoted\", name",
    14: "Ends with quote \"",
    15: "🇯🇵 Izakaya Tanuki",
    16: "Tab\tSeparated Grill",
    17: "Back\\slash & Sons",
    18: "North Pole Station",                    # latitude 90 / longitude -180: inclusive bounds
    19: "Rooftop 🌇, Level 5",
}

FIXED_ROWS = {
    # index: overrides
    18: {"latitude": "90", "longitude": "-180"},
    20: {"rating": "12345678901234567.123456789"},
    21: {"visits": "0"},
    22: {"visits": "2147483647"},
    23: {"rating": "0.01", "visits": None, "active": None},
    24: {"rating": "-3.5"},
}


def location_name(rng, i):
    if i in SPECIAL_NAMES:
        return SPECIAL_NAMES[i]
    name = f"{rng.choice(ADJECTIVES)} {rng.choice(NOUNS)}"
    r = rng.random()
    if r < 0.25:
        name += f", {rng.choice(CITIES)}"                 # comma -> quoted field
    elif r < 0.35:
        name = f"{rng.choice(EMOJI)} {name}"
    elif r < 0.42:
        name = f'{name} "{rng.choice(CITIES)}"'           # doubled quotes
    elif r < 0.47:
        name += f" #{rng.randint(2, 40)}"
    return name


def gen_locations(rng):
    start = datetime(2023, 1, 1, tzinfo=timezone.utc)
    rows = []
    for i in range(N_LOCATIONS):
        rating_roll = rng.random()
        if rating_roll < 0.15:
            rating = None
        else:
            n = rng.randint(0, 500)
            style = rng.random()
            if style < 0.6:
                rating = f"{n // 100}.{n % 100:02d}"
            elif style < 0.9:
                rating = f"{n // 100}.{(n // 10) % 10}"
            else:
                rating = str(n // 100)
        visits_roll = rng.random()
        if visits_roll < 0.1:
            visits = None
        elif visits_roll < 0.15:
            visits = "0"
        else:
            visits = str(rng.randint(1, 250000))
        row = {
            "locationId": f"loc-{i + 1:05d}",
            "name": location_name(rng, i),
            "latitude": fmt_coord(rng, -90, 90),
            "longitude": fmt_coord(rng, -180, 180),
            "createdAt": fmt_date(rng, random_dt(rng, start, 450)),
            "active": rng.choice(["true", "false", "1", "0", "yes", "no", "TRUE",
                                  "False", "YES", "No", None, None]),
            "rating": rating,
            "visits": visits,
        }
        row.update(FIXED_ROWS.get(i, {}))
        force = {1} if rng.random() < 0.05 else set()    # quoting that is not needed
        if rng.random() < 0.03:
            force.add(4)
        rows.append(([row[k] for k in LOCATION_HEADER], force))
    text = csv_row(LOCATION_HEADER)
    for values, force in rows:
        text += csv_row(values, force)
    ids = [values[0] for values, _ in rows]
    return text, ids


COMMENTS = [
    "Great coffee, friendly staff",
    'They said "best in town" and they were right',
    "Line 1\nLine 2",
    "Three lines:\nfirst\nsecond",
    "Café au lait was perfect",
    "Crème brûlée, again 😋",
    "🍕🍕🍕",
    "Path C:\\temp\\receipt.pdf",
    "Tab\tseparated",
    "日本語のコメントです",
    "Ünïcödé everywhere — “curly quotes” too",
    "Family trip 👨‍👩‍👧",
    "Closed early :(",
    "Would come back / 10 out of 10",
    "",
    "Meh.",
    "Loud music, slow service, \"interesting\" décor",
    "Zoë recommended the pierogi in Łódź",
]


def gen_checkin(rng, checkin_id, location_ids, start):
    rec = {
        "checkinId": checkin_id,
        "locationId": rng.choice(location_ids),
        "checkinTime": fmt_date(rng, random_dt(rng, start, 61)),
    }
    r = rng.random()
    if r < 0.1:
        rec["comment"] = None
    elif r < 0.2:
        pass                                             # comment missing
    elif r < 0.7:
        rec["comment"] = rng.choice(COMMENTS)
    else:
        rec["comment"] = f"Visit #{rng.randint(1, 99)}, {rng.choice(COMMENTS)}"
    r = rng.random()
    if r < 0.08:
        rec["rating"] = None
    elif r < 0.15:
        pass                                             # rating missing
    elif r < 0.16:
        rec["rating"] = str(rng.randint(1, 5))           # integer string (docs/values.md)
    else:
        rec["rating"] = rng.randint(1, 5)
    if rng.random() < 0.05:                              # key order is not significant
        keys = list(rec)
        rng.shuffle(keys)
        rec = {k: rec[k] for k in keys}
    return rec


def gen_checkins_ndjson(rng, location_ids):
    start = datetime(2024, 5, 1, tzinfo=timezone.utc)
    lines = []
    for i in range(N_CHECKINS_NDJSON):
        rec = gen_checkin(rng, f"chk-{i + 1:06d}", location_ids, start)
        ascii_escapes = rng.random() < 0.2                 # \u00e9, surrogate pairs for emoji
        line = json_obj(rec, ascii_escapes=ascii_escapes, compact=rng.random() < 0.85)
        if "/" in line and rng.random() < 0.5:
            line = line.replace("/", "\\/")                # legal JSON escape of '/'
        lines.append(line + "\n")
    return "".join(lines)


def gen_checkins_json(rng, location_ids):
    start = datetime(2024, 7, 1, tzinfo=timezone.utc)
    elements = []
    for i in range(N_CHECKINS_JSON):
        rec = gen_checkin(rng, f"chk-{100001 + i:06d}", location_ids, start)
        text = json.dumps(rec, ensure_ascii=rng.random() < 0.2, indent=2)
        elements.append("\n".join("  " + line for line in text.split("\n")))
    return "[\n" + ",\n".join(elements) + "\n]\n"


# ---------------------------------------------------------------------------------------
# The deliberately bad dump
# ---------------------------------------------------------------------------------------

class Dump:
    """Accumulates raw bytes and tracks the 1-based physical line each record starts on."""

    def __init__(self, name, entity):
        self.name = name
        self.entity = entity
        self.data = b""
        self.good = 0
        self.rows = []            # source values of the good records (dict: field -> value)
        self.expected = []        # (file, line, key, stage, reason, what)

    def line(self):
        return self.data.count(b"\n") + 1

    def raw(self, data):
        self.data += data if isinstance(data, bytes) else data.encode("utf-8")

    def good_record(self, data, values):
        self.good += 1
        self.rows.append(values)
        self.raw(data)

    def bad_record(self, data, key, stage, reason, what):
        self.expected.append((self.name, self.line(), key or "", stage, reason, what))
        self.raw(data)


def loc_values(key, name="Good Place", lat="10.5", lon="20.25",
               created="2024-03-01T10:15:30Z", active="true", rating="4.5", visits="10"):
    return [key, name, lat, lon, created, active, rating, visits]


def loc_row(*args, **kwargs):
    return csv_row(loc_values(*args, **kwargs))


def good_loc(d, *args, **kwargs):
    """A good Location: its CSV row, plus its source values for the expected store."""
    values = loc_values(*args, **kwargs)
    d.good_record(csv_row(values), dict(zip(LOCATION_HEADER, values)))


def gen_bad_locations():
    d = Dump("locations-bad.csv", "Location")
    d.raw(csv_row(LOCATION_HEADER))
    G = lambda n: f"loc-b{n:04d}"       # good keys
    B = lambda n: f"loc-x{n:04d}"       # keys of bad records

    good_loc(d, G(1), "Café Zoë ☕", "48.856613", "2.352222",
             "2024-03-01T10:15:30Z", "true", "4.75", "120")
    good_loc(d, G(2), '🍕 Pizza, "Best" in town', "40.7128", "-74.006",
             "2024-03-01T10:15:30.250Z", None, None, None)
    good_loc(d, G(3), "Two\nlines", "-33.8688", "151.2093",
             "2024-03-01T12:15:30+02:00", "no", "3", "0")
    d.bad_record(loc_row(B(1), "Too Few Fields")[:-1].rsplit(",", 3)[0] + "\n", None,
                 "read", "malformed",
                 "wrong field count: 5 fields, the header has 8")
    good_loc(d, G(4), "Smith, Jones & Co.", "51.5074", "-0.1278",
             "2024-04-02T08:00:00Z", "1", "0.5", "7")
    d.bad_record(f"{B(2)},Pizza, Best in town,1.5,2.5,2024-03-01T10:15:30Z,true,4.0,5\n",
                 None, "read", "malformed",
                 "wrong field count: an unquoted comma in the name gives 9 fields")
    d.bad_record(loc_row(B(3), lat="north"), B(3), "validate", "type",
                 "latitude is `north`, not a number")
    good_loc(d, G(5), "Crème Brûlée Corner", "45.764", "4.8357",
             "2024-02-29T23:59:59.999Z", "TRUE", "12345678901234567.123456789",
             "2147483647")
    d.bad_record(loc_row(B(4), visits="12.5"), B(4), "validate", "type",
                 "visits (int32) is `12.5`, not an integer")
    d.bad_record(loc_row(B(5), created="yesterday"), B(5), "validate", "type",
                 "createdAt is `yesterday`, not an ISO-8601 date")
    d.bad_record(loc_row(B(6), lon="nan"), B(6), "validate", "type",
                 "longitude is `nan` (inf/nan are refused for doubles)")
    d.bad_record(loc_row(B(7), lon="inf"), B(7), "validate", "type",
                 "longitude is `inf` (inf/nan are refused for doubles)")
    d.bad_record(loc_row(B(8), rating="1.2.3"), B(8), "validate", "type",
                 "rating (decimal) is `1.2.3`, not a decimal number")
    d.bad_record(loc_row(B(9), active="maybe"), B(9), "validate", "type",
                 "active (boolean) is `maybe`")
    good_loc(d, G(6), "Zürich HB", "47.3779", "8.5403",
             "2024-01-15T07:30:00-05:00", "yes", None, "3")
    d.bad_record(loc_row(B(10), name=None), B(10), "validate", "required",
                 "name is empty (null) but required")
    d.bad_record(loc_row(None, name="Nameless Key"), None, "validate", "required",
                 "locationId (the hash key) is empty")
    d.bad_record(loc_row(B(11), created=None), B(11), "validate", "required",
                 "createdAt is empty (null) but required")
    good_loc(d, G(7), "North Pole Station", "90", "-180",
             "2024-03-01T10:15:30Z", "0", "-1.25", "1")
    d.bad_record(loc_row(B(12), lat="91.5"), B(12), "validate", "range",
                 "latitude 91.5 is above max 90")
    d.bad_record(loc_row(B(13), lon="-180.5"), B(13), "validate", "range",
                 "longitude -180.5 is below min -180")
    d.bad_record(loc_row(B(14), visits="3000000000"), B(14), "validate", "range",
                 "visits 3000000000 is outside the int32 range")
    good_loc(d, G(8), "A" * 200, "1", "1",
             "2024-03-01T10:15:30Z", "false", "1", "1")
    d.bad_record(loc_row(B(15), name="B" * 201), B(15), "validate", "maxLength",
                 "name is 201 characters, maxLength is 200")
    for n in range(9, 14):
        good_loc(d, G(n), f"Plain Place {n}", f"{n}.5", f"-{n}.25",
                 f"2024-03-{n:02d}T10:15:30Z", "true", f"{n % 5}.5", str(n))
    first_line = d.line() - 1   # G(13) was just written on a single line
    d.bad_record(loc_row(G(13), name="Second Plain Place 13"), G(13), "validate",
                 "duplicate",
                 f"locationId `{G(13)}` repeats the record on line {first_line}")
    d.bad_record(f"{B(16)},\"abc\"x,1.0,2.0,2024-03-01T10:15:30Z,true,1.0,1\n".encode(),
                 None, "read", "malformed",
                 "a character (`x`) after the closing quote of the name")
    d.bad_record(f"{B(17)},Caf".encode() + b"\xff" + b" Broken,1.0,2.0,"
                 b"2024-03-01T10:15:30Z,true,1.0,1\n",
                 None, "read", "encoding", "invalid UTF-8: byte 0xFF in the name")
    for n in range(14, 18):
        good_loc(d, G(n), f"Ordinary Place {n}", f"-{n}.125", f"{n}.5",
                 f"2024-05-{n:02d}T09:00:00.500Z", "no", "2.25", str(n * 10))
    # The unterminated quote swallows everything to EOF, so it comes last but one group:
    # nothing after it may contain a double quote. The reader rejects the record from its
    # first line and resumes on the next line, so the rows after it must still be stored.
    d.bad_record(f"{B(18)},\"Unterminated name,1.0,2.0,2024-03-01T10:15:30Z,true,1.0,1\n",
                 None, "read", "malformed",
                 "unterminated quoted field (runs to end of file); reading resumes on the "
                 "next line")
    for n in range(18, 21):
        good_loc(d, G(n), f"After The Quote {n}", f"{n}.75", f"{n}.75",
                 f"2024-06-{n:02d}T18:45:00+02:00", None, None, None)
    after = d.data.split(b"\n")[d.expected[-1][1] - 1:]
    assert b'"' not in b"\n".join(after[1:]), "a quote after the unterminated one"
    good_keys = [G(n) for n in range(1, 21)]
    return d, good_keys


def chk_rec(key, loc="loc-b0001", time="2024-05-01T08:00:00Z", comment="ok", rating=4,
            **extra):
    """A Checkin object; `...` leaves the field out (missing, not null)."""
    rec = {"checkinId": key, "locationId": loc, "checkinTime": time}
    if comment is not ...:
        rec["comment"] = comment
    if rating is not ...:
        rec["rating"] = rating
    rec.update(extra)
    return rec


def chk(*args, **kwargs):
    return json_obj(chk_rec(*args, **kwargs)) + "\n"


def gen_bad_checkins(good_locations):
    d = Dump("checkins-bad.ndjson", "Checkin")
    G = lambda n: f"chk-b{n:04d}"
    B = lambda n: f"chk-x{n:04d}"
    comments = ["Great coffee, friendly staff", 'They said "best"', "Line 1\nLine 2",
                "Café au lait", "🍕🍕", None, ..., "Zoë was here"]
    good_n = 0

    def good(count):
        nonlocal good_n
        for _ in range(count):
            good_n += 1
            loc = good_locations[(good_n * 7) % len(good_locations)]
            rating = [1, 2, 3, 4, 5, None, ...][good_n % 7]
            comment = comments[good_n % len(comments)]
            rec = chk_rec(G(good_n), loc, f"2024-05-{good_n % 28 + 1:02d}T08:{good_n:02d}:00Z",
                          comment, rating)
            line = json_obj(rec) + "\n"
            if good_n % 5 == 0:
                line = json.dumps(json.loads(line), ensure_ascii=True,
                                  separators=(",", ":")) + "\n"
            d.good_record(line, rec)

    good(4)
    d.bad_record('{"checkinId":"chk-x0001","loc\n', None, "read", "malformed",
                 "truncated JSON")
    good(2)
    d.bad_record("[1,2]\n", None, "read", "malformed", "a JSON array, not an object")
    d.bad_record("42\n", None, "read", "malformed", "a JSON number, not an object")
    good(3)
    d.bad_record(b'{"checkinId":"chk-x0002","locationId":"loc-b0001",'
                 b'"checkinTime":"2024-05-01T08:00:00Z","comment":"caf\xff"}\n',
                 None, "read", "encoding", "invalid UTF-8: byte 0xFF in the comment")
    d.bad_record(chk(B(3), mood="happy"), B(3), "map", "unknownField",
                 "extra field `mood` that the model does not have")
    good(3)
    d.bad_record(chk(B(4), rating="five"), B(4), "validate", "type",
                 "rating (int16) is the string `five`")
    d.bad_record(chk(B(5), rating=2.5), B(5), "validate", "type",
                 "rating (int16) is 2.5, not an integer")
    d.bad_record(chk(B(6), time="yesterday"), B(6), "validate", "type",
                 "checkinTime is `yesterday`, not an ISO-8601 date")
    good(3)
    d.bad_record(json_obj({"checkinId": B(7), "locationId": "loc-b0001", "comment": "no time",
                           "rating": 3}) + "\n", B(7), "validate", "required",
                 "checkinTime is missing but required")
    d.bad_record(chk(B(8), loc=None), B(8), "validate", "required",
                 "locationId is null but required")
    d.bad_record(chk(None), None, "validate", "required",
                 "checkinId (the hash key) is null")
    good(3)
    d.bad_record(chk(B(9), rating=9), B(9), "validate", "range", "rating 9 is above max 5")
    d.bad_record(chk(B(10), rating=0), B(10), "validate", "range", "rating 0 is below min 1")
    good(4)
    first_line = d.line() - 1
    dup = G(good_n)
    d.bad_record(chk(dup, comment="second time"), dup, "validate", "duplicate",
                 f"checkinId `{dup}` repeats the record on line {first_line}")
    d.bad_record(chk(B(11), loc="loc-99999"), B(11), "validate", "reference",
                 "locationId `loc-99999` names no Location")
    d.bad_record(chk(B(12), loc="loc-x0003"), B(12), "validate", "reference",
                 "locationId `loc-x0003` names a Location that was itself rejected "
                 "(locations-bad.csv, type)")
    good(8)
    # Good rows at the end that reference the Locations stored after the unterminated quote.
    for loc in good_locations[-3:]:
        good_n += 1
        rec = chk_rec(G(good_n), loc, "2024-06-30T23:59:59.999+00:00",
                      "after the unterminated quote", 5)
        d.good_record(json_obj(rec) + "\n", rec)
    return d


# ---------------------------------------------------------------------------------------
# The expected store for the good records of the bad dump (docs/values.md's storage rules)
# ---------------------------------------------------------------------------------------
# Each function returns the text the sqlite3 CLI (3.40, list mode) prints for the stored
# value; None is NULL and prints as an empty field.

ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?"
                      r"(Z|[+-]\d{2}:\d{2})$")


def store_date(text):
    """date -> TEXT YYYY-MM-DDTHH:MM:SS.sssZ in UTC."""
    m = ISO_DATE.match(text)
    assert m, text
    y, mo, d, h, mi, sec, frac, tz = m.groups()
    ms = int((frac or "0").ljust(3, "0"))
    if tz == "Z":
        offset = timedelta(0)
    else:
        sign = 1 if tz[0] == "+" else -1
        offset = sign * timedelta(hours=int(tz[1:3]), minutes=int(tz[4:6]))
    dt = datetime(int(y), int(mo), int(d), int(h), int(mi), int(sec),
                  tzinfo=timezone(offset)).astimezone(timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + f".{ms:03d}Z"


def store_decimal(text):
    """decimal -> canonical TEXT: no '+', no leading/trailing zeros, no bare '.', no '-0'."""
    m = re.fullmatch(r"([+-]?)(\d*)(?:\.(\d*))?", text)
    assert m and (m.group(2) or m.group(3)), text
    sign, whole, frac = m.group(1), m.group(2).lstrip("0") or "0", (m.group(3) or "").rstrip("0")
    out = whole + ("." + frac if frac else "")
    return out if sign != "-" or out == "0" else "-" + out


def store_double(text):
    """double -> REAL, as sqlite3 3.40 prints it: printf("%!.15g"), i.e. %.15g with '.0'
    added when the result has no '.' (before the exponent if there is one)."""
    out = f"{float(text):.15g}"
    if "." not in out and "n" not in out:              # not inf/nan (refused anyway)
        mant, e, exp = out.partition("e")
        out = mant + ".0" + e + exp
    return out


def store_boolean(text, default):
    if text is None or text == "":
        return default
    return {"true": "1", "yes": "1", "1": "1", "false": "0", "no": "0", "0": "0"}[text.lower()]


def store_int(value, default=None):
    if value is None or value == "":
        return default
    if isinstance(value, str):
        assert re.fullmatch(r"[+-]?\d+", value), value
    return str(int(value))


def expected_locations(rows):
    out = []
    for r in rows:
        out.append([
            r["locationId"],
            r["name"],
            None if r["latitude"] is None else store_double(r["latitude"]),
            None if r["longitude"] is None else store_double(r["longitude"]),
            store_date(r["createdAt"]),
            store_boolean(r["active"], "1"),             # default: true
            None if r["rating"] is None else store_decimal(r["rating"]),
            store_int(r["visits"], "0"),                 # default: 0
            "1",                                         # version: first import
        ])
    return out


def expected_checkins(recs):
    out = []
    for r in recs:
        out.append([
            r["checkinId"],
            r["locationId"],
            store_date(r["checkinTime"]),
            r.get("comment"),                            # missing or null -> NULL
            store_int(r.get("rating")),
            "1",
        ])
    return out


def sqlite_list(rows):
    """sqlite3 -separator '|' output: fields joined by '|', NULL as '', one '\\n' per row,
    sorted by the first column (ORDER BY on TEXT: memcmp order of the UTF-8 bytes)."""
    keys = [r[0] for r in rows]
    assert len(set(keys)) == len(keys), "duplicate keys among the good records"
    rows = sorted(rows, key=lambda r: r[0].encode("utf-8"))
    return "".join("|".join("" if v is None else v for v in r) + "\n" for r in rows)


README_HEAD = """\
# The deliberately bad Locations dump

`locations-bad.yaml` (in `Pipelines/`) imports these two files. Each file mixes good records
with exactly one fault per bad record; every good record must be stored and every bad record
must appear in `rejects.ndjson` with the `line`, `key`, `stage` and `reason` below.
The run finishes with exit code 1 (`errors.maxErrorRatio: 1.0`, so it never aborts).

Generated by `../generate.py` (do not edit by hand; this table is written from the same data
as the files, so the line numbers are exact).

- `locations-bad.csv` (entity `Location`): **{loc_good} good records** (`loc-b0001` ... `loc-b0020`),
  {loc_bad} bad records.
- `checkins-bad.ndjson` (entity `Checkin`): **{chk_good} good records** (`chk-b0001` ... `chk-b{chk_good:04d}`),
  {chk_bad} bad records. Every good Checkin references a good Location.

Conventions:

- `file` is the source file's name; `source` in `rejects.ndjson` ends with it.
- `line` is the 1-based physical line (LF-counted) where the record starts; the CSV header is
  line 1. Good CSV records with a newline inside a quoted field occupy two lines, so CSV line
  numbers are not record numbers plus one.
- `key` is the record's hash key. It is empty where the record has none (null/empty hash key)
  and for every `read` rejection: a record that could not be read/decoded has no fields yet.
- The CSV's unterminated quote runs to end of file. The reader rejects it from its first line
  and resumes reading on the next line; the three records after it (`loc-b0018` ... `loc-b0020`)
  are good and must be stored, and the last three Checkins reference them. Nothing after the
  unterminated quote contains a `"`.
- The duplicate records are the second occurrences; the first occurrences are good and stored.
- `chk-x0012` references `loc-x0003`, a Location that exists in the input but was rejected
  (latitude `north`), so it is not in the store: reason `reference`.

"""


def bad_readme(loc, chk_dump):
    text = README_HEAD.format(loc_good=loc.good, loc_bad=len(loc.expected),
                              chk_good=chk_dump.good, chk_bad=len(chk_dump.expected))
    text += "| file | line | key | stage | reason | what is wrong |\n"
    text += "|---|---|---|---|---|---|\n"
    for file, line, key, stage, reason, what in loc.expected + chk_dump.expected:
        assert "|" not in what
        text += f"| {file} | {line} | {key} | {stage} | {reason} | {what} |\n"
    return text


# ---------------------------------------------------------------------------------------

def main():
    rng = random.Random(SEED)
    locations_csv, location_ids = gen_locations(rng)
    write_text(os.path.join(HERE, "locations.csv"), locations_csv)
    write_text(os.path.join(HERE, "checkins.ndjson"), gen_checkins_ndjson(rng, location_ids))
    write_text(os.path.join(HERE, "checkins.json"), gen_checkins_json(rng, location_ids))

    loc, good_locations = gen_bad_locations()
    chk_dump = gen_bad_checkins(good_locations)
    write_bytes(os.path.join(BAD, loc.name), loc.data)
    write_bytes(os.path.join(BAD, chk_dump.name), chk_dump.data)
    write_text(os.path.join(BAD, "README.md"), bad_readme(loc, chk_dump))
    write_text(os.path.join(BAD, "expected-locations.txt"),
               sqlite_list(expected_locations(loc.rows)))
    write_text(os.path.join(BAD, "expected-checkins.txt"),
               sqlite_list(expected_checkins(chk_dump.rows)))


if __name__ == "__main__":
    main()
