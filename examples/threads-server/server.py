#!/usr/bin/env python3
"""The reference server for a site-kept thread store (docs/dev/thread-store.md).

    python3 examples/threads-server/server.py --db threads.sqlite --port 8788 \
        --allow-origin https://site.example

A REST store of conversations, one versioned JSON record each, for the chat's `threads-url`:

    GET    {base}          [{id, title, updatedAt}], newest first, paged (?limit, ?cursor, Link)
    GET    {base}/{id}     the record, with its ETag (If-None-Match -> 304)
    PUT    {base}/{id}     create (If-None-Match: *) or compare-and-swap (If-Match: "<etag>")
    DELETE {base}/{id}     204 (If-Match honoured when given)

Python 3.11 standard library only (http.server + sqlite3), so it runs anywhere with no install.
Every input is untrusted: the body, the ids, the headers, the cursor are bounded and checked, and
every error answers JSON `{"error": "..."}`.
"""

import argparse
import base64
import binascii
import datetime
import hmac
import http.server
import json
import re
import secrets
import signal
import socket
import sqlite3
import sys
import threading
import urllib.parse

MAX_BODY = 5 * 1024 * 1024          # bytes of one PUT body (413 beyond; never read further)
MAX_ID = 200                        # characters of an id
MAX_THREADS = 10_000                # conversations per store (one store per user)
MAX_UPDATED_AT = 64                 # characters of updatedAt
LIST_TITLE_CHARS = 500              # the list shows a title cut to this (the record keeps it all)
DEFAULT_LIMIT, MAX_LIMIT = 50, 200  # page size of the list
MAX_CURSOR = 512                    # characters of a cursor
MAX_CONNECTIONS = 64                # connections served at once (more are closed at once)
SOCKET_TIMEOUT = 30                 # seconds a connection may stay silent
LINGER_BYTES, LINGER_SECONDS = 1024 * 1024, 1.0  # unread body drained before closing
# Bodies parsed at once: a 5 MiB record is many times that as Python objects while it is checked.
PARSE_SLOTS = threading.BoundedSemaphore(4)

ID_RE = re.compile(r"[A-Za-z0-9._:-]{1,%d}" % MAX_ID)
DIGITS_RE = re.compile(r"[0-9]{1,20}")
CURSOR_RE = re.compile(r"[A-Za-z0-9_-]{1,%d}" % MAX_CURSOR)
SORT_KEY_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z")
# RFC 6750 b64token, the form of a bearer token.
TOKEN_RE = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
USER_RE = re.compile(r"[^\x00-\x1f\x7f]{1,200}")
# One entity-tag of an If-Match / If-None-Match list (RFC 9110 8.8.3).
ETAG_ITEM_RE = re.compile(r'\s*(W/)?("[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)')

ALLOW_METHODS = "GET, PUT, DELETE, OPTIONS"
ALLOW_HEADERS = "Content-Type, Authorization, If-Match, If-None-Match"
EXPOSE_HEADERS = "ETag, Link"

SCHEMA = """
CREATE TABLE IF NOT EXISTS threads (
    user       TEXT NOT NULL,
    id         TEXT NOT NULL,
    title      TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    sort_key   TEXT NOT NULL,
    etag       TEXT NOT NULL,
    record     TEXT NOT NULL,
    PRIMARY KEY (user, id)
);
CREATE INDEX IF NOT EXISTS threads_newest ON threads (user, sort_key DESC, id DESC);
"""


class HttpError(Exception):
    """An answer with a JSON error body."""

    def __init__(self, status, message, headers=()):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = list(headers)


# --- pure helpers -------------------------------------------------------------------------------


def sort_key(updated_at):
    """updatedAt (ISO 8601) as a fixed-width UTC string that sorts in time order; ValueError when
    it is not a date. A time without an offset is taken as UTC."""
    if len(updated_at) > MAX_UPDATED_AT:
        raise ValueError("too long")
    moment = datetime.datetime.fromisoformat(updated_at)
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.timezone.utc)  # OverflowError is an ArithmeticError
    return moment.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def encode_cursor(key, thread_id):
    raw = json.dumps([key, thread_id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor):
    """(sort key, id) of a cursor; ValueError when it is not one this server made."""
    if not CURSOR_RE.fullmatch(cursor):
        raise ValueError("cursor")
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        key, thread_id = json.loads(raw.decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError, ValueError, TypeError) as e:
        raise ValueError("cursor") from e
    if not (isinstance(key, str) and SORT_KEY_RE.fullmatch(key)
            and isinstance(thread_id, str) and valid_id(thread_id)):
        raise ValueError("cursor")
    return key, thread_id


def valid_id(thread_id):
    return bool(ID_RE.fullmatch(thread_id)) and thread_id not in (".", "..")


def parse_etags(value):
    """An If-Match / If-None-Match value: "*" or a list of (weak, tag); None when malformed."""
    value = value.strip()
    if value == "*":
        return "*"
    tags, pos = [], 0
    while pos < len(value):
        m = ETAG_ITEM_RE.match(value, pos)
        if not m or m.end() == pos:
            return None
        tags.append((bool(m.group(1)), m.group(2)))
        pos = m.end()
    return tags or None


def strong_match(tags, etag):
    """If-Match: the strong comparison (a weak tag never matches)."""
    return tags == "*" or any(not weak and tag == etag for weak, tag in tags)


def weak_match(tags, etag):
    """If-None-Match on GET: the weak comparison."""
    return tags == "*" or any(tag == etag for _, tag in tags)


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def validate_record(text, path_id):
    """The record of a PUT body (already UTF-8 text): (title, updatedAt, sort key), or HttpError
    400. The text itself is what is stored, untouched."""
    try:
        record = json.loads(text, parse_constant=reject_constant)
    except RecursionError:
        raise HttpError(400, "the body nests too deeply") from None
    except ValueError as e:
        raise HttpError(400, f"the body is not JSON: {str(e)[:200]}") from None
    if not isinstance(record, dict):
        raise HttpError(400, "the record must be a JSON object")
    if record.get("id") != path_id:
        raise HttpError(400, "the record's id must equal the id in the path")
    title, updated_at, messages = (record.get(k) for k in ("title", "updatedAt", "messages"))
    if not isinstance(title, str):
        raise HttpError(400, "the record needs a string title")
    if not isinstance(updated_at, str):
        raise HttpError(400, "the record needs a string updatedAt")
    if not isinstance(messages, list):
        raise HttpError(400, "the record needs a messages array")
    if not all(isinstance(m, dict) for m in messages):
        raise HttpError(400, "every message must be a JSON object")
    try:
        key = sort_key(updated_at)
    except (ValueError, ArithmeticError):
        raise HttpError(400, "updatedAt must be an ISO 8601 date and time") from None
    for name, value in (("title", title), ("updatedAt", updated_at)):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise HttpError(400, f"{name} is not valid Unicode") from None
    return title[:LIST_TITLE_CHARS], updated_at, key


def parse_tokens(values, files):
    """--token / --token-file entries (`user:token` or `token`) as {token: user}."""
    entries = list(values)
    for path in files:
        with open(path, encoding="utf-8") as f:
            entries += [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
    tokens = {}
    for entry in entries:
        user, sep, token = entry.rpartition(":")
        if not sep:
            user = ""
        elif not USER_RE.fullmatch(user):
            raise SystemExit(f"threads-server: a bad user name in --token {user!r}")
        if not TOKEN_RE.fullmatch(token):
            raise SystemExit("threads-server: a token must be an RFC 6750 b64token")
        if tokens.get(token, user) != user:
            raise SystemExit("threads-server: one token given to two users")
        tokens[token] = user
    return tokens


def parse_origin(origin):
    parts = urllib.parse.urlsplit(origin.rstrip("/"))
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path \
            or parts.query or parts.fragment or "@" in parts.netloc:
        raise SystemExit("threads-server: --allow-origin wants scheme://host[:port], "
                         f"not {origin!r}")
    return f"{parts.scheme}://{parts.netloc.lower()}"


# --- the store ----------------------------------------------------------------------------------


class Store:
    """The SQLite file. One connection per request; writes are compare-and-swap inside one
    `BEGIN IMMEDIATE` transaction, so concurrent writers are serialised by SQLite itself."""

    def __init__(self, path, max_threads=MAX_THREADS):
        self.path = path
        self.max_threads = max_threads
        with self.connect() as conn:
            mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode.lower() != "wal":
                print(f"threads-server: journal mode {mode}, not WAL", file=sys.stderr)
            conn.executescript(SCHEMA)

    def connect(self):
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        conn.execute("PRAGMA busy_timeout=10000")
        return _Closing(conn)

    def list(self, user, limit, after):
        with self.connect() as conn:
            if after is None:
                rows = conn.execute(
                    "SELECT id, title, updated_at, sort_key FROM threads WHERE user = ? "
                    "ORDER BY sort_key DESC, id DESC LIMIT ?", (user, limit + 1)).fetchall()
            else:
                rows = conn.execute(
                    "SELECT id, title, updated_at, sort_key FROM threads WHERE user = ? "
                    "AND (sort_key, id) < (?, ?) ORDER BY sort_key DESC, id DESC LIMIT ?",
                    (user, after[0], after[1], limit + 1)).fetchall()
        return rows

    def get(self, user, thread_id):
        with self.connect() as conn:
            return conn.execute("SELECT record, etag FROM threads WHERE user = ? AND id = ?",
                                (user, thread_id)).fetchone()

    def put(self, user, thread_id, record, title, updated_at, key, if_match, create_only):
        """(created, etag), or HttpError 412 / 507."""
        with self.connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute("SELECT etag FROM threads WHERE user = ? AND id = ?",
                                   (user, thread_id)).fetchone()
                current = row[0] if row else None
                if create_only and current is not None:
                    raise HttpError(412, "the conversation exists already", [("ETag", current)])
                if if_match is not None and (current is None
                                             or not strong_match(if_match, current)):
                    headers = [("ETag", current)] if current else []
                    raise HttpError(412, "the conversation changed since (or is gone): "
                                    "load it again and merge", headers)
                if current is None:
                    (count,) = conn.execute("SELECT COUNT(*) FROM threads WHERE user = ?",
                                            (user,)).fetchone()
                    if count >= self.max_threads:
                        raise HttpError(507, f"the store holds {self.max_threads} "
                                        "conversations already: delete some")
                etag = '"%s"' % secrets.token_urlsafe(16)
                if current is None:
                    conn.execute("INSERT INTO threads (user, id, title, updated_at, sort_key, "
                                 "etag, record) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                 (user, thread_id, title, updated_at, key, etag, record))
                else:
                    conn.execute("UPDATE threads SET title = ?, updated_at = ?, sort_key = ?, "
                                 "etag = ?, record = ? WHERE user = ? AND id = ?",
                                 (title, updated_at, key, etag, record, user, thread_id))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return current is None, etag

    def delete(self, user, thread_id, if_match):
        with self.connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                row = conn.execute("SELECT etag FROM threads WHERE user = ? AND id = ?",
                                   (user, thread_id)).fetchone()
                if row is None:
                    raise HttpError(404, "no such conversation")
                if if_match is not None and not strong_match(if_match, row[0]):
                    raise HttpError(412, "the conversation changed since", [("ETag", row[0])])
                conn.execute("DELETE FROM threads WHERE user = ? AND id = ?", (user, thread_id))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise


class _Closing:
    """`with` for a connection that closes it (sqlite3's own `with` only commits)."""

    def __init__(self, conn):
        self.conn = conn

    def __enter__(self):
        return self.conn

    def __exit__(self, *exc):
        self.conn.close()


# --- HTTP ---------------------------------------------------------------------------------------


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "threads-server/1"
    sys_version = ""
    timeout = SOCKET_TIMEOUT

    # self.server (a Server) carries the store, base, origins, tokens and quiet.

    def version_string(self):
        return self.server_version

    def log_message(self, format, *args):
        if not self.server.quiet:
            super().log_message(format, *args)

    # --- answering ---

    def setup(self):
        super().setup()
        self._linger = False

    def parse_request(self):
        self._body_read = False  # per request (a connection may carry several)
        return super().parse_request()

    def _body_pending(self):
        """Does the request carry a body this handler has not read?"""
        headers = getattr(self, "headers", None)
        if headers is None or getattr(self, "_body_read", False):
            return False
        if headers.get("Transfer-Encoding") is not None:
            return True
        length = headers.get("Content-Length", "0").strip()
        return not DIGITS_RE.fullmatch(length) or int(length) > 0

    def _cors_headers(self):
        headers = getattr(self, "headers", None)
        origin = headers.get("Origin") if headers is not None else None
        out = []
        if self.server.origins:
            out.append(("Vary", "Origin"))
        if origin is not None and origin in self.server.origins:
            out += [("Access-Control-Allow-Origin", origin),
                    ("Access-Control-Allow-Credentials", "true"),
                    ("Access-Control-Expose-Headers", EXPOSE_HEADERS)]
        return out

    def respond(self, status, body=None, headers=()):
        """One answer: a JSON body (bytes are sent as they are), CORS headers for an allowed
        origin, and `Connection: close` when a request body was left unread."""
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body, ensure_ascii=True).encode()
        if self._body_pending():
            self.close_connection = True
            self._linger = True
        self.send_response(status)
        for name, value in list(headers) + self._cors_headers():
            self.send_header(name, value)
        self.send_header("Cache-Control", "private, no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        if body is not None:
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
        elif status not in (204, 304):
            self.send_header("Content-Length", "0")
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if body is not None and self.command != "HEAD":
            self.wfile.write(body)

    def send_error(self, code, message=None, explain=None):
        """http.server's own errors (a bad request line, too many headers, an unknown method)
        as JSON too."""
        self.close_connection = True
        try:
            self.respond(code, {"error": message or self.responses.get(code, ("error",))[0]})
        except OSError:
            pass

    def finish(self):
        """After an answer that left a body unread: half-close, then drain a bounded amount for
        a moment, so the client reads the answer before the socket closes (no RST)."""
        super().finish()
        if getattr(self, "_linger", False):
            try:
                self.connection.shutdown(socket.SHUT_WR)
                self.connection.settimeout(LINGER_SECONDS)
                drained = 0
                while drained < LINGER_BYTES:
                    chunk = self.connection.recv(65536)
                    if not chunk:
                        break
                    drained += len(chunk)
            except OSError:
                pass

    # --- dispatch ---

    def do_GET(self):
        self._dispatch(self._get)

    def do_PUT(self):
        self._dispatch(self._put)

    def do_DELETE(self):
        self._dispatch(self._delete)

    def do_OPTIONS(self):
        self._dispatch(self._options, auth=False, check_id=False)

    def do_POST(self):
        self._dispatch(self._not_allowed, auth=False)

    do_PATCH = do_HEAD = do_POST

    def _dispatch(self, method, auth=True, check_id=True):
        try:
            target = urllib.parse.urlsplit(self.path)
            base = self.server.base
            if target.path == base:
                thread_id = None
            elif target.path.startswith(base + "/"):
                thread_id = urllib.parse.unquote(target.path[len(base) + 1:], errors="replace")
            else:
                raise HttpError(404, "not found")
            user = self._user() if auth else None
            if thread_id is not None and check_id and not valid_id(thread_id):
                raise HttpError(400, f"an id is 1 to {MAX_ID} characters of A-Z a-z 0-9 . _ : -")
            method(user, thread_id, target.query)
        except HttpError as e:
            self.respond(e.status, {"error": e.message}, e.headers)
        except sqlite3.OperationalError as e:
            self.log_error("sqlite: %s", e)
            self.respond(503, {"error": "the store is busy: try again"}, [("Retry-After", "1")])
        except (ConnectionError, TimeoutError):
            self.close_connection = True
        except Exception as e:  # noqa: BLE001 - one request's bug must not kill the server
            self.log_error("internal error: %r", e)
            self.close_connection = True
            self.respond(500, {"error": "internal error"})

    def _user(self):
        tokens = self.server.tokens
        if not tokens:
            return ""
        scheme, _, given = (self.headers.get("Authorization") or "").strip().partition(" ")
        given = given.strip()
        user = None
        if scheme.lower() == "bearer" and given:
            for token, owner in tokens.items():  # every token compared, in constant time each
                if hmac.compare_digest(token.encode(), given.encode("utf-8", "replace")):
                    user = owner
        if user is None:
            raise HttpError(401, "a valid bearer token is required",
                            [("WWW-Authenticate", 'Bearer realm="threads"')])
        return user

    def _precondition(self, name):
        value = self.headers.get(name)
        if value is None:
            return None
        tags = parse_etags(value)
        if tags is None:
            raise HttpError(400, f"{name} is not a list of entity tags")
        return tags

    # --- the endpoints ---

    def _options(self, _user, _thread_id, _query):
        headers = [("Allow", ALLOW_METHODS)]
        origin = self.headers.get("Origin")
        if origin is not None and origin in self.server.origins:
            headers += [("Access-Control-Allow-Methods", ALLOW_METHODS),
                        ("Access-Control-Allow-Headers", ALLOW_HEADERS),
                        ("Access-Control-Max-Age", "600")]
        self.respond(204, None, headers)

    def _not_allowed(self, _user, _thread_id, _query):
        raise HttpError(405, f"{self.command} is not allowed here", [("Allow", ALLOW_METHODS)])

    def _get(self, user, thread_id, query):
        if thread_id is None:
            return self._list(user, query)
        row = self.server.store.get(user, thread_id)
        if row is None:
            raise HttpError(404, "no such conversation")
        record, etag = row
        tags = self._precondition("If-None-Match")
        if tags is not None and weak_match(tags, etag):
            return self.respond(304, None, [("ETag", etag)])
        self.respond(200, record.encode("utf-8"), [("ETag", etag)])

    def _list(self, user, query):
        try:
            params = urllib.parse.parse_qs(query, keep_blank_values=True, max_num_fields=8)
        except ValueError:
            raise HttpError(400, "too many query parameters") from None
        limit = DEFAULT_LIMIT
        if "limit" in params:
            text = params["limit"][0]
            if not (DIGITS_RE.fullmatch(text) and len(text) <= 9 and int(text) >= 1):
                raise HttpError(400, "limit must be a whole number from 1")
            limit = min(int(text), MAX_LIMIT)
        after = None
        if "cursor" in params:
            try:
                after = decode_cursor(params["cursor"][0])
            except ValueError:
                raise HttpError(400, "a bad cursor") from None
        rows = self.server.store.list(user, limit, after)
        headers = []
        if len(rows) > limit:
            rows = rows[:limit]
            cursor = encode_cursor(rows[-1][3], rows[-1][0])
            headers.append(("Link", f'<{self.server.base}?cursor={cursor}&limit={limit}>; '
                                    'rel="next"'))
        body = [{"id": i, "title": t, "updatedAt": u} for i, t, u, _ in rows]
        self.respond(200, body, headers)

    def _put(self, user, thread_id, _query):
        if_match = self._precondition("If-Match")
        if_none_match = self._precondition("If-None-Match")
        if if_none_match is not None and if_none_match != "*":
            raise HttpError(400, "a PUT takes If-None-Match: * (create) or If-Match (update)")
        if if_match is None and if_none_match is None:
            raise HttpError(428, 'a PUT needs If-None-Match: * (create) or If-Match: "<etag>"')
        if self.headers.get("Transfer-Encoding") is not None:
            raise HttpError(411, "send the body with a Content-Length")
        lengths = self.headers.get_all("Content-Length") or []
        if len(lengths) != 1 or not DIGITS_RE.fullmatch(lengths[0].strip()):
            raise HttpError(411 if not lengths else 400, "one Content-Length is required")
        length = int(lengths[0].strip())
        if length > MAX_BODY:
            raise HttpError(413, f"a record is at most {MAX_BODY} bytes")
        data = self.rfile.read(length)
        self._body_read = True
        if len(data) != length:
            self.close_connection = True
            raise HttpError(400, "the body ended early")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise HttpError(400, "the body is not UTF-8") from None
        with PARSE_SLOTS:
            title, updated_at, key = validate_record(text, thread_id)
        created, etag = self.server.store.put(user, thread_id, text, title, updated_at, key,
                                              if_match, if_none_match == "*")
        headers = [("ETag", etag)]
        if created:
            headers.append(("Location", f"{self.server.base}/{thread_id}"))
        self.respond(201 if created else 200, {"etag": etag}, headers)

    def _delete(self, user, thread_id, _query):
        if thread_id is None:
            raise HttpError(405, f"DELETE one conversation: {self.server.base}/<id>",
                            [("Allow", "GET, OPTIONS")])
        self.server.store.delete(user, thread_id, self._precondition("If-Match"))
        self.respond(204)


class Server(http.server.ThreadingHTTPServer):
    """A thread per connection, at most MAX_CONNECTIONS at once."""

    daemon_threads = True
    request_queue_size = 128  # the listen backlog (socketserver's 5 resets a burst)

    def __init__(self, address, store, base, origins, tokens, quiet=False):
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        self.store, self.base, self.origins, self.tokens = store, base, origins, tokens
        self.quiet = quiet
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        super().__init__(address, Handler)

    def process_request(self, request, client_address):
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)
            return
        thread = threading.Thread(target=self.process_request_thread,
                                  args=(request, client_address), daemon=True)
        try:
            thread.start()
        except RuntimeError:  # no thread could be started: the slot and the socket go back
            self._slots.release()
            self.shutdown_request(request)

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


def main(argv=None):
    p = argparse.ArgumentParser(description="The reference server for a site-kept thread store.")
    p.add_argument("--db", default="threads.sqlite", help="the SQLite file (created if absent)")
    p.add_argument("--host", default="127.0.0.1", help="the address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8788, help="the port (0: a free one)")
    p.add_argument("--base", default="/api/threads", help="the base path (default /api/threads)")
    p.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                   help="an origin allowed by CORS (repeatable; default: same origin only)")
    p.add_argument("--token", action="append", default=[], metavar="[USER:]TOKEN",
                   help="a bearer token, USER:TOKEN to keep that user's store apart (repeatable)")
    p.add_argument("--token-file", action="append", default=[], metavar="FILE",
                   help="a file of [USER:]TOKEN lines (keeps tokens out of the process list)")
    p.add_argument("--max-threads", type=int, default=MAX_THREADS,
                   help=f"conversations per store (default {MAX_THREADS})")
    p.add_argument("--stop-after", type=float, default=None, metavar="SECONDS",
                   help="stop by itself after this many seconds")
    p.add_argument("--quiet", action="store_true", help="no request log on stderr")
    args = p.parse_args(argv)

    base = "/" + args.base.strip("/")
    if base == "/" or any(c in base for c in "?#% ") or "//" in base:
        p.error("--base wants a path such as /api/threads")
    if args.max_threads < 1:
        p.error("--max-threads must be at least 1")
    origins = frozenset(parse_origin(o) for o in args.allow_origin)
    tokens = parse_tokens(args.token, args.token_file)

    try:
        store = Store(args.db, args.max_threads)
        server = Server((args.host, args.port), store, base, origins, tokens, args.quiet)
    except (sqlite3.Error, OSError) as e:
        raise SystemExit(f"threads-server: {e}") from None
    # SIGTERM, SIGINT and --stop-after all stop the same way: they set an event, and a thread
    # waiting on it has serve_forever return at its next poll (an exception raised by a signal
    # handler could land anywhere, even inside a thread's start, and be lost).
    stopping = threading.Event()

    def stop_when_asked():
        stopping.wait()
        server.shutdown()

    threading.Thread(target=stop_when_asked, daemon=True).start()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())
    if args.stop_after is not None:
        timer = threading.Timer(args.stop_after, stopping.set)
        timer.daemon = True
        timer.start()

    host, port = server.server_address[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"threads-server listening on http://{shown}:{port}{base}", flush=True)
    try:
        server.serve_forever(poll_interval=0.05)
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
