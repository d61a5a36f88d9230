"""Tests of the reference thread-store server (server.py), each against a real server process.

    python3 -m unittest discover -s examples/threads-server -v

Every test starts `server.py --port 0` on 127.0.0.1 with its own SQLite file in a temporary
folder, reads the port from the line it prints, and stops it in tearDown (the server also has
`--stop-after` as a safety net). Python 3.11 standard library only.
"""

import http.client
import json
import os
import re
import selectors
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "server.py")
sys.path.insert(0, HERE)
import server as threads_server  # noqa: E402  (the pure helpers, tested directly below)

LISTENING = re.compile(r"threads-server listening on http://127\.0\.0\.1:(\d+)(/\S*)$")
SITE = "https://site.example"


def record(thread_id, title="A chat", updated_at="2025-03-01T10:00:00.000Z", **extra):
    rec = {"id": thread_id, "title": title, "updatedAt": updated_at,
           "messages": [{"id": "m1", "role": "user", "content": "hello"}]}
    rec.update(extra)
    return rec


class ServerProcess:
    """server.py in a child process, on 127.0.0.1 and a free port."""

    def __init__(self, db, args=(), stop_after=120):
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, SERVER, "--db", db, "--host", "127.0.0.1", "--port", "0",
             "--stop-after", str(stop_after), *args],
            stdout=subprocess.PIPE, stderr=self.stderr, stdin=subprocess.DEVNULL)
        line = self._first_line(15)
        m = LISTENING.match(line)
        if not m:
            self.stop()
            raise AssertionError(f"the server printed {line!r}; stderr: {self.log()}")
        self.port, self.base = int(m.group(1)), m.group(2)

    def _first_line(self, timeout):
        with selectors.DefaultSelector() as sel:
            sel.register(self.proc.stdout, selectors.EVENT_READ)
            if not sel.select(timeout):
                self.stop()
                raise AssertionError(f"the server printed nothing in {timeout} s: {self.log()}")
        return self.proc.stdout.readline().decode().rstrip("\n")

    def log(self):
        self.stderr.seek(0)
        return self.stderr.read().decode(errors="replace")[-4000:]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        self.proc.stdout.close()
        self.stderr.close()

    def request(self, method, path="", body=None, headers=None, absolute=False):
        """(status, headers, body bytes) of one request on a fresh connection; `path` is
        appended to the base path unless `absolute`."""
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
        elif isinstance(body, str):
            body = body.encode()
        url = path if absolute else self.base + path
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        try:
            conn.request(method, url, body=body, headers=headers or {})
            resp = conn.getresponse()
            return resp.status, resp.headers, resp.read()
        finally:
            conn.close()


class ServerCase(unittest.TestCase):
    ARGS = ()

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="threads-server-test-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.db = os.path.join(self.dir, "threads.sqlite")
        self.server = self.start()

    def start(self, args=None, stop_after=120):
        srv = ServerProcess(self.db, self.ARGS if args is None else args, stop_after)
        self.addCleanup(srv.stop)
        return srv

    def req(self, method, path="", body=None, headers=None, absolute=False):
        return self.server.request(method, path, body, headers, absolute)

    def create(self, rec, headers=None):
        status, h, body = self.req("PUT", "/" + rec["id"], rec,
                                   {"If-None-Match": "*", **(headers or {})})
        self.assertEqual(status, 201, body)
        return h["ETag"]

    def assertError(self, status, headers, body, expected):
        self.assertEqual(status, expected, body)
        self.assertTrue(headers["Content-Type"].startswith("application/json"))
        err = json.loads(body)
        self.assertIsInstance(err, dict)
        self.assertIsInstance(err.get("error"), str)
        self.assertTrue(err["error"])
        return err["error"]


class RoundTrip(ServerCase):
    def test_create_get_update_delete(self):
        rec = record("t1", state={"city": "Lisbon"}, branches=[], version=3)
        status, h, body = self.req("PUT", "/t1", rec, {"If-None-Match": "*"})
        self.assertEqual(status, 201)
        etag = h["ETag"]
        self.assertRegex(etag, r'^"[^"]+"$')  # strong and quoted
        self.assertEqual(json.loads(body), {"etag": etag})
        self.assertEqual(h["Location"], self.server.base + "/t1")

        status, h, body = self.req("GET", "/t1")
        self.assertEqual(status, 200)
        self.assertEqual(h["ETag"], etag)
        self.assertEqual(json.loads(body), rec)

        rec2 = dict(rec, title="Renamed", updatedAt="2025-03-02T10:00:00Z")
        rec2["messages"] = rec["messages"] + [{"id": "m2", "role": "assistant", "content": "hi"}]
        status, h, body = self.req("PUT", "/t1", rec2, {"If-Match": etag})
        self.assertEqual(status, 200)
        etag2 = h["ETag"]
        self.assertNotEqual(etag2, etag)
        self.assertEqual(json.loads(body), {"etag": etag2})

        status, h, body = self.req("GET", "/t1")
        self.assertEqual((status, h["ETag"], json.loads(body)), (200, etag2, rec2))

        status, _, body = self.req("DELETE", "/t1")
        self.assertEqual((status, body), (204, b""))
        self.assertError(*self.req("GET", "/t1"), 404)
        self.assertError(*self.req("DELETE", "/t1"), 404)
        status, _, body = self.req("GET")
        self.assertEqual((status, json.loads(body)), (200, []))

    def test_the_record_is_stored_as_given(self):
        text = ('{ "messages": [], "updatedAt": "2025-03-01T10:00:00Z", "title": "Café ☕",\n'
                '  "id": "raw", "queue": [{"n": 1.50e2}], "state": {"z": null, "a": [true]} }')
        status, _, body = self.req("PUT", "/raw", text.encode(), {"If-None-Match": "*"})
        self.assertEqual(status, 201, body)
        status, h, body = self.req("GET", "/raw")
        self.assertEqual(status, 200)
        self.assertEqual(body.decode("utf-8"), text)
        self.assertTrue(h["Content-Type"].startswith("application/json"))

    def test_stale_if_match_is_412(self):
        etag1 = self.create(record("t1"))
        status, h, _ = self.req("PUT", "/t1", record("t1", title="second"), {"If-Match": etag1})
        self.assertEqual(status, 200)
        etag2 = h["ETag"]
        status, h, body = self.req("PUT", "/t1", record("t1", title="stale"), {"If-Match": etag1})
        self.assertError(status, h, body, 412)
        self.assertEqual(h["ETag"], etag2)  # the current version, to load and merge
        status, h, body = self.req("GET", "/t1")
        self.assertEqual((h["ETag"], json.loads(body)["title"]), (etag2, "second"))
        # A weak tag never matches If-Match (the strong comparison).
        self.assertError(*self.req("PUT", "/t1", record("t1"), {"If-Match": "W/" + etag2}), 412)
        # Absent: nothing to match.
        self.assertError(*self.req("PUT", "/gone", record("gone"), {"If-Match": etag2}), 412)
        self.assertError(*self.req("GET", "/gone"), 404)
        # One of a list matches.
        status, _, _ = self.req("PUT", "/t1", record("t1"), {"If-Match": f'"x", {etag2}'})
        self.assertEqual(status, 200)

    def test_create_when_it_exists_is_412(self):
        etag = self.create(record("t1", title="first"))
        status, h, body = self.req("PUT", "/t1", record("t1", title="again"),
                                   {"If-None-Match": "*"})
        self.assertError(status, h, body, 412)
        status, h, body = self.req("GET", "/t1")
        self.assertEqual((h["ETag"], json.loads(body)["title"]), (etag, "first"))

    def test_no_precondition_is_428(self):
        self.assertError(*self.req("PUT", "/t1", record("t1")), 428)
        self.assertError(*self.req("GET", "/t1"), 404)
        etag = self.create(record("t1"))
        self.assertError(*self.req("PUT", "/t1", record("t1", title="x")), 428)
        self.assertEqual(self.req("GET", "/t1")[1]["ETag"], etag)

    def test_if_none_match_is_304(self):
        etag = self.create(record("t1"))
        status, h, body = self.req("GET", "/t1", headers={"If-None-Match": etag})
        self.assertEqual((status, body, h["ETag"]), (304, b"", etag))
        status, _, _ = self.req("GET", "/t1", headers={"If-None-Match": f'"other", W/{etag}'})
        self.assertEqual(status, 304)
        status, _, body = self.req("GET", "/t1", headers={"If-None-Match": '"other"'})
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(body)["id"], "t1")

    def test_delete_honours_if_match(self):
        etag = self.create(record("t1"))
        self.assertError(*self.req("DELETE", "/t1", headers={"If-Match": '"stale"'}), 412)
        self.assertEqual(self.req("GET", "/t1")[0], 200)
        self.assertEqual(self.req("DELETE", "/t1", headers={"If-Match": etag})[0], 204)
        self.assertEqual(self.req("GET", "/t1")[0], 404)

    def test_keep_alive_serves_several_requests(self):
        self.create(record("t1"))
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        self.addCleanup(conn.close)
        for _ in range(3):
            conn.request("GET", self.server.base + "/t1")
            resp = conn.getresponse()
            self.assertEqual((resp.status, json.loads(resp.read())["id"]), (200, "t1"))

    def test_other_paths_and_methods(self):
        self.assertError(*self.req("GET", "/elsewhere", absolute=True), 404)
        self.assertError(*self.req("GET", self.server.base + "x", absolute=True), 404)
        status, h, body = self.req("POST", "", record("t1"))
        self.assertError(status, h, body, 405)
        self.assertIn("PUT", h["Allow"])
        self.assertError(*self.req("DELETE"), 405)
        self.assertError(*self.req("BREW", "/t1"), 501)


class Listing(ServerCase):
    def put_all(self, items):
        for thread_id, updated_at in items:
            self.create(record(thread_id, title=f"title {thread_id}", updated_at=updated_at))

    def list(self, query="", absolute=False):
        status, h, body = self.req("GET", query, absolute=absolute)
        self.assertEqual(status, 200, body)
        return json.loads(body), h.get("Link")

    def test_newest_first(self):
        self.put_all([
            ("old", "2024-12-31T23:59:59Z"),
            ("noon-plus-2", "2025-01-01T12:00:00+02:00"),  # 10:00 UTC
            ("eleven", "2025-01-01T11:00:00.000Z"),
            ("tie-a", "2025-01-01T09:00:00Z"),
            ("tie-b", "2025-01-01T09:00:00.000Z"),  # the same moment: then by id, descending
            ("new", "2025-06-01T00:00:00.5Z"),
        ])
        items, link = self.list()
        self.assertIsNone(link)
        self.assertEqual([i["id"] for i in items],
                         ["new", "eleven", "noon-plus-2", "tie-b", "tie-a", "old"])
        self.assertEqual(items[2], {"id": "noon-plus-2", "title": "title noon-plus-2",
                                    "updatedAt": "2025-01-01T12:00:00+02:00"})
        # An update moves a conversation to the top.
        etag = self.req("GET", "/old")[1]["ETag"]
        self.req("PUT", "/old", record("old", updated_at="2025-07-01T00:00:00Z"),
                 {"If-Match": etag})
        self.assertEqual(self.list()[0][0]["id"], "old")

    def follow(self, link):
        m = re.fullmatch(r'<([^>]+)>; rel="next"', link)
        self.assertIsNotNone(m, link)
        self.assertTrue(m.group(1).startswith(self.server.base + "?"), link)
        return m.group(1)

    def test_paging_across_three_pages(self):
        ids = [f"c{n:02d}" for n in range(7)]
        self.put_all((i, f"2025-02-{n + 1:02d}T08:00:00Z") for n, i in enumerate(ids))
        newest_first = list(reversed(ids))
        page1, link = self.list("?limit=3")
        self.assertEqual([i["id"] for i in page1], newest_first[0:3])
        self.assertIn("limit=3", link)
        page2, link = self.list(self.follow(link), absolute=True)
        self.assertEqual([i["id"] for i in page2], newest_first[3:6])
        page3, link = self.list(self.follow(link), absolute=True)
        self.assertEqual([i["id"] for i in page3], newest_first[6:])
        self.assertIsNone(link)

    def test_no_link_when_the_last_page_is_full(self):
        self.put_all((f"c{n}", f"2025-02-0{n + 1}T08:00:00Z") for n in range(4))
        page1, link = self.list("?limit=2")
        page2, link = self.list(self.follow(link), absolute=True)
        self.assertEqual(len(page2), 2)
        self.assertIsNone(link)
        _, link = self.list("?limit=4")
        self.assertIsNone(link)
        page, link = self.list("?limit=1000")  # capped at 200, not refused
        self.assertEqual((len(page), link), (4, None))

    def test_default_page_is_fifty(self):
        self.put_all((f"c{n:02d}", f"2025-02-01T08:00:{n:02d}Z") for n in range(51))
        page, link = self.list()
        self.assertEqual(len(page), 50)
        self.assertIn("limit=50", link)
        rest, link = self.list(self.follow(link), absolute=True)
        self.assertEqual(([i["id"] for i in rest], link), (["c00"], None))

    def test_the_cursor_is_stable_under_inserts(self):
        self.put_all((f"c{n}", f"2025-02-0{n + 1}T08:00:00Z") for n in range(6))
        page1, link = self.list("?limit=3")
        self.assertEqual([i["id"] for i in page1], ["c5", "c4", "c3"])
        # New ones arrive: a newest, one on c3's moment, one older than all.
        self.put_all([("n1", "2025-03-01T00:00:00Z"), ("c3a", "2025-02-04T08:00:00Z"),
                      ("older", "2025-01-01T00:00:00Z")])
        # Page 2 starts after c3 as it was: no newer one and no repeat, c3a (after c3 by id
        # on the same moment) sorts before the cursor; the older one comes at the end.
        page2, link = self.list(self.follow(link), absolute=True)
        self.assertEqual([i["id"] for i in page2], ["c2", "c1", "c0"])
        page3, link = self.list(self.follow(link), absolute=True)
        self.assertEqual(([i["id"] for i in page3], link), (["older"], None))
        # A fresh first page sees the new ones.
        self.assertEqual([i["id"] for i in self.list("?limit=3")[0]], ["n1", "c5", "c4"])

    def test_bad_cursor_and_limit_are_400(self):
        self.put_all([("c1", "2025-02-01T08:00:00Z"), ("c2", "2025-02-02T08:00:00Z")])
        _, link = self.list("?limit=1")
        good = re.search(r"cursor=([^&>]+)", link).group(1)
        self.assertEqual(self.list(f"?cursor={good}")[0][0]["id"], "c1")
        for bad in ["!!!", "abc", good[:-3], good + "x" * 600, "W10",  # W10 = "[]"
                    "WyIyMDI1IiwiYzEiXQ",  # ["2025","c1"]: not a key of this server
                    "%00"]:
            with self.subTest(cursor=bad):
                self.assertError(*self.req("GET", f"?cursor={bad}"), 400)
        for bad in ["0", "-1", "x", "1.5", "", "9" * 20, "%D9%A3"]:
            with self.subTest(limit=bad):
                self.assertError(*self.req("GET", f"?limit={bad}"), 400)


class Validation(ServerCase):
    def test_record_errors_are_400(self):
        cases = {
            "id mismatch": record("other"),
            "no id": {k: v for k, v in record("t1").items() if k != "id"},
            "no messages": {k: v for k, v in record("t1").items() if k != "messages"},
            "messages not an array": record("t1", messages={"0": {}}),
            "a message not an object": record("t1", messages=["hello"]),
            "title not a string": record("t1", title=7),
            "no updatedAt": {k: v for k, v in record("t1").items() if k != "updatedAt"},
            "updatedAt not a date": record("t1", updated_at="yesterday"),
            "updatedAt too long": record("t1", updated_at="2025-03-01T10:00:00" + "0" * 80),
            "an array": [record("t1")],
            "not JSON": "{'id': 't1'}",
            "NaN": json.dumps(record("t1", n=float("nan"))),
            "not UTF-8": b'{"id": "t1", "title": "\xff"}',
            "lone surrogate title": json.dumps(record("t1", title="\ud800")),
            "deep": "[" * 100_000 + "]" * 100_000,
        }
        for name, body in cases.items():
            with self.subTest(name):
                self.assertError(*self.req("PUT", "/t1", body, {"If-None-Match": "*"}), 400)
        self.assertEqual(json.loads(self.req("GET")[2]), [])

    def test_bad_ids_are_400(self):
        long_ok = "a" * 200
        self.create(record(long_ok))
        self.create(record("Ab09._:-x"))
        for bad in ["a" * 201, "a%20b", "a%2Fb", "a/b", "..", "%C3%A9", ""]:
            with self.subTest(id=bad):
                self.assertError(*self.req("GET", "/" + bad), 400)
                self.assertError(*self.req("PUT", "/" + bad, record(bad),
                                           {"If-None-Match": "*"}), 400)
        # An encoded colon is the same id as a plain one (encodeURIComponent encodes it).
        self.assertEqual(self.req("GET", "/Ab09._%3A-x")[0], 200)

    def test_body_too_large_is_413_without_reading_it(self):
        declared = threads_server.MAX_BODY + 1
        head = (f"PUT {self.server.base}/big HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"If-None-Match: *\r\nContent-Type: application/json\r\n"
                f"Content-Length: {declared}\r\n\r\n").encode()
        with socket.create_connection(("127.0.0.1", self.server.port), timeout=5) as sock:
            sock.sendall(head + b'{"id": "big", "title": "' + b"x" * 65536)
            # Only 64 KiB of the 5 MiB + 1 are sent: a server waiting for the rest times out
            # this read instead of answering.
            answer = b""
            started = time.monotonic()
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
            self.assertLess(time.monotonic() - started, 5)
        head_text, _, body = answer.partition(b"\r\n\r\n")
        self.assertTrue(head_text.startswith(b"HTTP/1.1 413 "), answer[:200])
        self.assertIn(b"connection: close", head_text.lower())
        self.assertIn("error", json.loads(body))
        self.assertError(*self.req("GET", "/big"), 404)

    def test_a_body_of_exactly_the_limit_is_taken(self):
        rec = record("big", messages=[{"id": "m", "role": "user", "content": ""}])
        size = len(json.dumps(rec).encode())
        rec["messages"][0]["content"] = "x" * (threads_server.MAX_BODY - size)
        body = json.dumps(rec).encode()
        self.assertEqual(len(body), threads_server.MAX_BODY)
        status, _, _ = self.req("PUT", "/big", body, {"If-None-Match": "*"})
        self.assertEqual(status, 201)
        self.assertEqual(self.req("GET", "/big")[2], body)

    def test_chunked_body_is_refused(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        self.addCleanup(conn.close)
        conn.request("PUT", self.server.base + "/t1", body=iter([json.dumps(record("t1"))
                                                                 .encode()]),
                     headers={"If-None-Match": "*"}, encode_chunked=True)
        resp = conn.getresponse()
        self.assertError(resp.status, resp.headers, resp.read(), 411)

    def test_malformed_preconditions_are_400(self):
        self.assertError(*self.req("PUT", "/t1", record("t1"), {"If-Match": "no quotes"}), 400)
        self.assertError(*self.req("PUT", "/t1", record("t1"), {"If-None-Match": '"x"'}), 400)


class Limits(ServerCase):
    ARGS = ("--max-threads", "3")

    def test_the_store_is_full(self):
        etags = [self.create(record(f"t{n}")) for n in range(3)]
        err = self.assertError(*self.req("PUT", "/t3", record("t3"), {"If-None-Match": "*"}),
                               507)
        self.assertIn("3", err)
        # Updates still work; a delete makes room.
        status, _, _ = self.req("PUT", "/t0", record("t0", title="x"), {"If-Match": etags[0]})
        self.assertEqual(status, 200)
        self.assertEqual(self.req("DELETE", "/t1")[0], 204)
        self.create(record("t3"))


class Cors(ServerCase):
    ARGS = ("--allow-origin", SITE, "--allow-origin", "http://localhost:5173/")

    def assertCors(self, headers, origin):
        self.assertEqual(headers["Access-Control-Allow-Origin"], origin)
        self.assertEqual(headers["Access-Control-Allow-Credentials"], "true")
        self.assertEqual(headers["Access-Control-Expose-Headers"], "ETag, Link")
        self.assertIn("Origin", headers["Vary"])

    def assertNoCors(self, headers):
        self.assertEqual([k for k in headers if k.lower().startswith("access-control-")], [])

    def test_allowed_origins_get_cors_headers(self):
        status, h, _ = self.req("PUT", "/t1", record("t1"),
                                {"If-None-Match": "*", "Origin": SITE})
        self.assertEqual(status, 201)
        self.assertCors(h, SITE)
        for path in ["", "/t1"]:
            status, h, _ = self.req("GET", path, headers={"Origin": "http://localhost:5173"})
            self.assertEqual(status, 200)
            self.assertCors(h, "http://localhost:5173")
        # Errors too, so the page can read them.
        status, h, body = self.req("GET", "/nope", headers={"Origin": SITE})
        self.assertError(status, h, body, 404)
        self.assertCors(h, SITE)

    def test_other_origins_get_none(self):
        self.create(record("t1"))
        for origin in ["https://evil.example", "https://site.example.evil", "null",
                       SITE + ":443", SITE.upper()]:
            with self.subTest(origin=origin):
                status, h, _ = self.req("GET", "/t1", headers={"Origin": origin})
                self.assertEqual(status, 200)
                self.assertNoCors(h)
        self.assertNoCors(self.req("GET", "/t1")[1])

    def test_preflight(self):
        status, h, body = self.req("OPTIONS", "/t1", headers={
            "Origin": SITE, "Access-Control-Request-Method": "PUT",
            "Access-Control-Request-Headers": "content-type, if-match"})
        self.assertEqual((status, body), (204, b""))
        self.assertCors(h, SITE)
        self.assertEqual(h["Access-Control-Allow-Methods"], "GET, PUT, DELETE, OPTIONS")
        self.assertEqual(h["Access-Control-Allow-Headers"],
                         "Content-Type, Authorization, If-Match, If-None-Match")
        self.assertEqual(h["Access-Control-Max-Age"], "600")
        status, h, _ = self.req("OPTIONS", "", headers={
            "Origin": "https://evil.example", "Access-Control-Request-Method": "DELETE"})
        self.assertEqual(status, 204)
        self.assertNoCors(h)


class NoCorsByDefault(ServerCase):
    def test_same_origin_only(self):
        status, h, _ = self.req("GET", "", headers={"Origin": SITE})
        self.assertEqual(status, 200)
        self.assertEqual([k for k in h if k.lower().startswith("access-control-")], [])
        status, h, _ = self.req("OPTIONS", "", headers={
            "Origin": SITE, "Access-Control-Request-Method": "PUT"})
        self.assertEqual([k for k in h if k.lower().startswith("access-control-")], [])


class Auth(ServerCase):
    ARGS = ("--token", "alice:T1-alice", "--token", "bob:T2.bob", "--allow-origin", SITE)
    ALICE = {"Authorization": "Bearer T1-alice"}
    BOB = {"Authorization": "bearer T2.bob"}

    def test_401_without_a_valid_token(self):
        for headers in [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Bearer "},
                        {"Authorization": "Basic VDEtYWxpY2U6"}, {"Authorization": "T1-alice"},
                        {"Authorization": "Bearer T1-alic"},
                        {"Authorization": "Bearer T1-alice2"}]:
            with self.subTest(headers=headers):
                status, h, body = self.req("GET", "", headers=headers)
                self.assertError(status, h, body, 401)
                self.assertTrue(h["WWW-Authenticate"].startswith("Bearer"))
        status, h, body = self.req("PUT", "/t1", record("t1"), {"If-None-Match": "*"})
        self.assertError(status, h, body, 401)
        # The preflight carries no token and still answers.
        status, h, _ = self.req("OPTIONS", "/t1", headers={
            "Origin": SITE, "Access-Control-Request-Method": "PUT"})
        self.assertEqual(status, 204)
        self.assertIn("Authorization", h["Access-Control-Allow-Headers"])
        # A 401 a page can read: CORS headers on it.
        status, h, _ = self.req("GET", "", headers={"Origin": SITE})
        self.assertEqual((status, h["Access-Control-Allow-Origin"]), (401, SITE))

    def test_users_never_see_each_others_threads(self):
        self.create(record("shared-id", title="alice's"), self.ALICE)
        self.create(record("a-only", title="alice's other"), self.ALICE)
        status, _, body = self.req("GET", "", headers=self.BOB)
        self.assertEqual((status, json.loads(body)), (200, []))
        self.assertError(*self.req("GET", "/shared-id", headers=self.BOB), 404)
        self.assertError(*self.req("DELETE", "/a-only", headers=self.BOB), 404)
        self.assertError(*self.req("PUT", "/a-only", record("a-only"),
                                   {"If-Match": "*", **self.BOB}), 412)
        # Bob's own conversation of the same id.
        self.create(record("shared-id", title="bob's"), self.BOB)
        ids = [(i["id"], i["title"]) for i in json.loads(self.req("GET", "", headers=self.BOB)[2])]
        self.assertEqual(ids, [("shared-id", "bob's")])
        self.assertEqual(self.req("DELETE", "/shared-id", headers=self.BOB)[0], 204)
        status, _, body = self.req("GET", "/shared-id", headers=self.ALICE)
        self.assertEqual((status, json.loads(body)["title"]), (200, "alice's"))
        titles = sorted(i["title"] for i in json.loads(self.req("GET", "", headers=self.ALICE)[2]))
        self.assertEqual(titles, ["alice's", "alice's other"])


class Race(ServerCase):
    WRITERS = 20

    def race(self, headers_of):
        barrier = threading.Barrier(self.WRITERS)
        results = [None] * self.WRITERS

        def writer(n):
            barrier.wait(10)
            results[n] = self.req("PUT", "/t1", record("t1", title=f"writer {n}"), headers_of(n))

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(self.WRITERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        self.assertTrue(all(r is not None for r in results), results)
        return results

    def test_one_if_match_wins(self):
        etag = self.create(record("t1"))
        results = self.race(lambda n: {"If-Match": etag})
        winners = [n for n, (status, _, _) in enumerate(results) if status == 200]
        losers = [n for n, (status, _, _) in enumerate(results) if status == 412]
        self.assertEqual(len(winners), 1, [r[0] for r in results])
        self.assertEqual(len(losers), self.WRITERS - 1, [r[0] for r in results])
        (w,) = winners
        status, h, body = self.req("GET", "/t1")
        self.assertEqual(json.loads(body)["title"], f"writer {w}")
        self.assertEqual(h["ETag"], results[w][1]["ETag"])
        self.assertNotEqual(h["ETag"], etag)

    def test_one_create_wins(self):
        results = self.race(lambda n: {"If-None-Match": "*"})
        statuses = sorted(r[0] for r in results)
        self.assertEqual(statuses, [201] + [412] * (self.WRITERS - 1))
        (w,) = [n for n, r in enumerate(results) if r[0] == 201]
        self.assertEqual(json.loads(self.req("GET", "/t1")[2])["title"], f"writer {w}")


class Persistence(ServerCase):
    def test_a_restart_keeps_records_and_etags(self):
        rec = record("kept", title="Kept", state={"n": 1})
        etag = self.create(rec)
        self.server.stop()
        self.assertEqual(sqlite3.connect(self.db).execute("PRAGMA journal_mode").fetchone()[0],
                         "wal")
        self.server = self.start()
        status, h, body = self.req("GET", "/kept")
        self.assertEqual((status, h["ETag"], json.loads(body)), (200, etag, rec))
        self.assertEqual([i["id"] for i in json.loads(self.req("GET")[2])], ["kept"])
        # The etag carried across the restart still guards updates.
        status, _, _ = self.req("PUT", "/kept", rec, {"If-Match": etag})
        self.assertEqual(status, 200)
        self.assertError(*self.req("PUT", "/kept", rec, {"If-Match": etag}), 412)

    def test_stop_after(self):
        srv = self.start(stop_after=1)
        self.assertEqual(srv.proc.wait(15), 0)


class Helpers(unittest.TestCase):
    def test_sort_key(self):
        key = threads_server.sort_key
        self.assertEqual(key("2025-01-01T12:00:00+02:00"), "2025-01-01T10:00:00.000000Z")
        self.assertEqual(key("2025-01-01T10:00:00Z"), key("2025-01-01T10:00:00.000Z"))
        self.assertLess(key("0999-01-01T00:00:00Z"), key("2025-01-01T00:00:00Z"))
        for bad in ["", "yesterday", "2025-13-01T00:00:00Z", "0001-01-01T00:00:00+01:00"]:
            with self.subTest(bad=bad), self.assertRaises((ValueError, ArithmeticError)):
                key(bad)

    def test_cursor_round_trip(self):
        c = threads_server.encode_cursor("2025-01-01T10:00:00.000000Z", "a:b")
        self.assertRegex(c, r"^[A-Za-z0-9_-]+$")
        self.assertEqual(threads_server.decode_cursor(c), ("2025-01-01T10:00:00.000000Z", "a:b"))

    def test_parse_etags(self):
        parse = threads_server.parse_etags
        self.assertEqual(parse("*"), "*")
        self.assertEqual(parse('"a", W/"b"'), [(False, '"a"'), (True, '"b"')])
        for bad in ["a", '"a', '"a" "b"', "", ","]:
            with self.subTest(bad=bad):
                self.assertIsNone(parse(bad))

    def test_parse_tokens(self):
        path = os.path.join(tempfile.mkdtemp(prefix="threads-server-test-"), "tokens")
        self.addCleanup(shutil.rmtree, os.path.dirname(path), True)
        with open(path, "w", encoding="utf-8") as f:
            f.write("# the site's users\ncarol@example.com:T3~x\n\n")
        tokens = threads_server.parse_tokens(["alice:T1", "T0", "a:b:T2"], [path])
        self.assertEqual(tokens, {"T1": "alice", "T0": "", "T2": "a:b",
                                  "T3~x": "carol@example.com"})
        for bad in [["alice:"], ["alice:T 1"], ["alice:T1", "bob:T1"], [":T1"]]:
            with self.subTest(bad=bad), self.assertRaises(SystemExit):
                threads_server.parse_tokens(bad, [])


if __name__ == "__main__":
    unittest.main()
