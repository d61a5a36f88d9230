"""A small scripted AG-UI server for the end-to-end tests, built on the official Python SDK
(`ag-ui-protocol`: its own event classes and `EventEncoder`). Deterministic: the reply depends
only on the request. It also serves the built app (`dist/`) so the page and the agent share an
origin. Listens on 127.0.0.1 only and stops itself after `--idle` seconds without a request.

    python server.py --dist ../../dist --port 8111 [--idle 120] [--example DIR] [--gzip]

`--gzip` (the time-to-interactive benchmark) serves `dist/` gzip-compressed, compressed once at
first request as a CDN's precompressed files would be, so the throttled network carries what
a production host sends. `/linked/` is a page-mode chat with an auth header for the
URL-configuration checks (`?optin=1` adds `url-options`, `?allow=…` `allowed-endpoints`);
`POST /elsewhere` is the same agent, recording the headers it was sent (`GET /elsewhere`);
`POST /moved` redirects there (307), `POST /huge-error` answers 500 with a 20 MB body.
`/strict/` (strict.html, a popup) and `/strict-app/` (the app page) are served with a strict
Content-Security-Policy header.
`/mcp-proxy/` is the inline host page (inline.html, the lean widget on this server's agent)
with `mcp-apps-proxy` set to the
reference sandbox proxy (examples/mcp-sandbox/) that `--sandbox-cert/--sandbox-key` serve over
https on another port of 127.0.0.1 (another origin), its `mcp-host-origin` set to this server's
origin; `?proxy=unedited` points it at the same proxy as shipped (`https://www.example.com` as
its host origin), `?proxy=http` at a plain-http URL (which the chat refuses).
`/declarative/` has a `[data-agui-endpoint]` element in its content (`?scan=1`: the page
opts in with `agui-chat.js?scan`).
Pages: `/embed/` (examples/embed, a popup; `?preload=idle` sets that attribute), `/inline/` (inline.html; `?hints=1` adds
preload links for the lean bundle to its head). `/ai-sdk/` (ai-sdk.html, with `--ai-sdk URL`): an
inline chat pointed at the AI SDK server (ai_sdk_server.mjs) at `URL/api/chat`, another origin;
like every page here, the endpoint is this server's to set, never the visitor's. `/proto/`
(proto.html, with `--proto URL`): the same for the protobuf binding's server (proto_server.mjs)
at `URL/agent`; `?transport=protobuf` (the only value taken) adds `transport="protobuf"`.
`--hosts DIR` (examples/hosts, built by scripts/hosts.sh): `/hosts/react/`, `/hosts/vue/` and
`/hosts/webpack/` are those apps' builds (their `dist/`); `--cdn DIR` (the installed package)
is served with CORS on another port of 127.0.0.1 (another origin), and `/hosts/plain/`,
`/hosts/plain/assets.html` and `/hosts/plain/full.html` are the plain pages with their CDN
URLs pointed there.

Scripts, chosen by the last user message (or by what the request answers):
  default      state snapshot, streamed markdown text, a `search_venues` tool call whose args
               stream, its result, a state delta
  "pay"        calls the frontend tool `confirm_payment` and finishes with it pending
  "where am i" calls the frontend tool `get_visitor_city` (the example host page registers it)
  "ask"        finishes with an interrupt outcome (a responseSchema form)
  "error"      some text, then RUN_ERROR
  "formula"    math (inline, display), a price, a table and a ```chart fence
  "drop"       some text, then the body just ends (no terminal event)
  "reserve"    a booking form as an A2UI surface (an `a2ui-surface` activity); its button comes
               back as `forwardedProps.a2uiAction` → "Reserved: …"
  "map"        three venues as an MCP App (an `mcp-apps` activity naming its `ui://` resource,
               no HTML); `forwardedProps.__proxiedMCPRequest` (`resources/read`, `tools/call
               venue_details`) is answered in `RUN_FINISHED.result`, as `@ag-ui/mcp-apps-middleware`
               does: the View (src/demo/map_view.html, the demo's own), a venue's details
  "chart"      a `make_chart` tool call whose result is content parts (AG-UI 1.0): a text part,
               an image part with its bytes (`data`, a PNG) and a document part at a URL
  a tool message or `resume` in the request → "Got your answer: …"
  media parts on the last user message → "Received image data image/png." (as the SDK parsed them)
"""

import argparse
import asyncio
import gzip
import http.server
import json
import mimetypes
import os
import re
import ssl
import threading
import time

import uvicorn
from ag_ui.core import (
    ActivitySnapshotEvent,
    EventType,
    Interrupt,
    RunAgentInput,
    RunErrorEvent,
    RunFinishedEvent,
    RunFinishedInterruptOutcome,
    RunStartedEvent,
    StateDeltaEvent,
    StateSnapshotEvent,
    SubagentFinishedEvent,
    SubagentStartedEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
)
from ag_ui.encoder import EventEncoder
from fastapi import FastAPI, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from fastapi.staticfiles import StaticFiles

LAST_REQUEST = {"at": time.monotonic()}
REQUESTS = []
# What reached /elsewhere (a server a crafted link would point the chat at): each request's
# headers, lower-cased names.
ELSEWHERE = []


FORMULA = (
    "The mean is \\(\\bar x = \\frac{1}{n}\\sum_{i=1}^{n} x_i\\) and\n\n"
    "$$\\int_0^1 x^2\\,dx = \\frac{1}{3}$$\n\n"
    "It costs $5 and $10.\n\n"
    "| venue | seats |\n|---|---:|\n| Tasca | 14 |\n| Pátio | 16 |\n\n"
    "```chart\nTasca 14\nPátio 16\nSalão 30\n```\n"
)

# A 1×1 PNG: the image the "chart" script's tool returns.
CHART_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="


def text_events(message_id, text, pause, subagent=None):
    yield TextMessageStartEvent(type=EventType.TEXT_MESSAGE_START, message_id=message_id, role="assistant",
                                subagent_run_id=subagent)
    for word in text.split(" "):
        yield TextMessageContentEvent(type=EventType.TEXT_MESSAGE_CONTENT, message_id=message_id, delta=word + " ",
                                      subagent_run_id=subagent)
        yield pause
    yield TextMessageEndEvent(type=EventType.TEXT_MESSAGE_END, message_id=message_id, subagent_run_id=subagent)


def script(inp: RunAgentInput, body: dict):
    t, r = inp.thread_id, inp.run_id
    started = RunStartedEvent(type=EventType.RUN_STARTED, thread_id=t, run_id=r)
    finished = RunFinishedEvent(type=EventType.RUN_FINISHED, thread_id=t, run_id=r)
    last = inp.messages[-1] if inp.messages else None
    users = [m for m in inp.messages if m.role == "user"]
    content = users[-1].content if users else ""
    parts = content if isinstance(content, list) else []
    text = content if isinstance(content, str) else " ".join(
        getattr(p, "text", "") for p in parts if getattr(p, "type", "") == "text")
    media = [p for p in parts if getattr(p, "type", "") in ("image", "audio", "video", "document")]
    resume = body.get("resume")
    forwarded = body.get("forwardedProps") or {}
    yield started
    if isinstance(forwarded, dict) and isinstance(forwarded.get("__proxiedMCPRequest"), dict):
        result = mcp_proxied(forwarded["__proxiedMCPRequest"])
        yield RunFinishedEvent(type=EventType.RUN_FINISHED, thread_id=t, run_id=r, result=result)
        return
    action = forwarded.get("a2uiAction", {}).get("userAction") if isinstance(forwarded, dict) else None
    if isinstance(action, dict):
        ctx = action.get("context") or {}
        said = lambda k: ", ".join(ctx[k]) if isinstance(ctx.get(k), list) else str(ctx.get(k, "—"))
        yield from text_events("m-" + r, f"Reserved: a table for {said('guests')} on {said('date')} "
                               f"under the name {said('name')}.", 0.0)
        yield finished
        return
    if media:
        # The parts as the official SDK parsed them (its ImageInputContent & co.).
        seen = ", ".join(f"{p.type} {p.source.type} {p.source.mime_type}" for p in media)
        yield from text_events("m-" + r, "Received " + seen + ".", 0.0)
        yield finished
        return
    if resume or (last is not None and last.role == "tool"):
        answer = json.dumps(resume) if resume else str(last.content)
        yield from text_events("m-" + r, "Got your answer: " + answer, 0.0)
        yield finished
        return
    if "pay" in text:
        tc = "pay-" + r
        yield ToolCallStartEvent(type=EventType.TOOL_CALL_START, tool_call_id=tc, tool_call_name="confirm_payment")
        for piece in ['{"amount":480,', '"currency":"EUR",', '"description":"Deposit for the Lisbon offsite"}']:
            yield ToolCallArgsEvent(type=EventType.TOOL_CALL_ARGS, tool_call_id=tc, delta=piece)
            yield 0.05
        yield ToolCallEndEvent(type=EventType.TOOL_CALL_END, tool_call_id=tc)
        yield finished
        return
    if "where am i" in text.lower():
        tc = "city-" + r
        yield ToolCallStartEvent(type=EventType.TOOL_CALL_START, tool_call_id=tc, tool_call_name="get_visitor_city")
        yield ToolCallArgsEvent(type=EventType.TOOL_CALL_ARGS, tool_call_id=tc, delta="{}")
        yield ToolCallEndEvent(type=EventType.TOOL_CALL_END, tool_call_id=tc)
        yield finished
        return
    if "ask" in text:
        schema = {
            "type": "object",
            "properties": {"travellers": {"type": "integer", "minimum": 1}},
            "required": ["travellers"],
        }
        interrupt = Interrupt(id="int-" + r, reason="input_required", message="How many people are coming?", response_schema=schema)
        yield RunFinishedEvent(
            type=EventType.RUN_FINISHED, thread_id=t, run_id=r,
            outcome=RunFinishedInterruptOutcome(type="interrupt", interrupts=[interrupt]),
        )
        return
    if "error" in text:
        yield from text_events("m-" + r, "Looking that up", 0.05)
        yield RunErrorEvent(type=EventType.RUN_ERROR, message="venue service unavailable (e2e)", code="e2e_error")
        return
    if "reserve" in text:
        yield from text_events("m-" + r, "Here is the reservation form:", 0.0)
        yield ActivitySnapshotEvent(type=EventType.ACTIVITY_SNAPSHOT, message_id="a2ui-" + r,
                                    activity_type="a2ui-surface", content={"a2ui_operations": RESERVATION})
        yield finished
        return
    if "map" in text:
        yield from text_events("m-" + r, "Here are the three venues on a map:", 0.0)
        yield ActivitySnapshotEvent(type=EventType.ACTIVITY_SNAPSHOT, message_id="app-" + r, activity_type="mcp-apps", content={
            "resourceUri": MAP_URI, "serverId": "lisbon-e2e",
            "toolInput": {"venues": [{"name": v["name"], "area": v["area"]} for v in VENUES]},
            "result": {"content": [{"type": "text", "text": "3 venues"}]},
        })
        yield finished
        return
    if "cite" in text:
        # The AG-UI sources convention (docs/answers.md): an activity of type "sources" in the
        # answer, before its text; [n] markers and a GFM footnote in the text.
        yield ActivitySnapshotEvent(type=EventType.ACTIVITY_SNAPSHOT, message_id="src-" + r, activity_type="sources",
                                    content={"sources": [
                                        {"id": "wiki", "url": "https://en.wikipedia.org/wiki/Lisbon",
                                         "title": "Lisbon – Wikipedia", "snippet": "Lisbon is the capital of Portugal."},
                                        {"id": "trams", "url": "https://www.carris.pt/en/", "title": "Carris trams"},
                                        {"id": "bad", "url": "javascript:alert(1)", "title": "Not a link"},
                                    ]})
        yield from text_events("m-" + r, "Lisbon has seven hills [1] and yellow trams [2][^t].\n\n"
                               "[^t]: Tram 28 is the famous one.", 0.0)
        yield finished
        return
    if "drop" in text:
        yield from text_events("m-" + r, "This answer will be cut off", 0.05)
        return
    if "formula" in text:
        # Math (display, inline, a price that stays text), a table and a ```chart fence, as
        # an answer streams them word by word.
        yield from text_events("m-" + r, FORMULA, 0.01)
        yield finished
        return
    if "chart" in text:
        yield from text_events("m-" + r, "Drawing the chart.", 0.0)
        tc = "chart-" + r
        yield ToolCallStartEvent(type=EventType.TOOL_CALL_START, tool_call_id=tc, tool_call_name="make_chart",
                                 parent_message_id="m-" + r)
        yield ToolCallArgsEvent(type=EventType.TOOL_CALL_ARGS, tool_call_id=tc, delta='{"metric":"bookings"}')
        yield ToolCallEndEvent(type=EventType.TOOL_CALL_END, tool_call_id=tc)
        # A result of content parts (AG-UI 1.0), as dicts the SDK validates into its parts.
        yield ToolCallResultEvent(type=EventType.TOOL_CALL_RESULT, message_id="res-" + r, tool_call_id=tc, content=[
            {"type": "text", "text": "Bookings by month"},
            {"type": "image", "source": {"type": "data", "value": CHART_PNG, "mimeType": "image/png"},
             "metadata": {"description": "Bookings by month, as a chart"}},
            {"type": "document", "source": {"type": "url", "value": "https://files.example/bookings.csv",
                                            "mimeType": "text/csv"}, "metadata": {"filename": "bookings.csv"}},
        ])
        yield finished
        return
    if "delegate" in text:
        yield from text_events("m-" + r, "Asking the research agent.", 0.0)
        sub = "sub-" + r
        yield SubagentStartedEvent(type=EventType.SUBAGENT_STARTED, subagent_run_id=sub, name="Research agent",
                                   description="Finds venues", parent_message_id="m-" + r)
        yield from text_events("s-" + r, "Three venues in Alfama fit the budget.", 0.05, subagent=sub)
        yield SubagentFinishedEvent(type=EventType.SUBAGENT_FINISHED, subagent_run_id=sub)
        yield from text_events("m2-" + r, "The research agent found three venues.", 0.0)
        yield finished
        return
    yield StateSnapshotEvent(type=EventType.STATE_SNAPSHOT, snapshot={"destination": "Lisbon", "travellers": 12, "venues": []})
    mid = "m-" + r
    yield from text_events(mid, f"**Real server** heard: {text}. Searching venues now.", 0.15)
    tc = "tc-" + r
    yield ToolCallStartEvent(type=EventType.TOOL_CALL_START, tool_call_id=tc, tool_call_name="search_venues", parent_message_id=mid)
    for piece in ['{"city":', '"Lisbon",', '"kind":"restaurant"}']:
        yield ToolCallArgsEvent(type=EventType.TOOL_CALL_ARGS, tool_call_id=tc, delta=piece)
        yield 0.1
    yield ToolCallEndEvent(type=EventType.TOOL_CALL_END, tool_call_id=tc)
    venues = {"venues": [{"name": "Tasca Real", "kind": "Restaurant", "area": "Alfama", "rating": 4.5, "price": "€€", "capacity": 14}]}
    yield ToolCallResultEvent(type=EventType.TOOL_CALL_RESULT, message_id="res-" + r, tool_call_id=tc, content=json.dumps(venues))
    yield StateDeltaEvent(type=EventType.STATE_DELTA, delta=[{"op": "add", "path": "/venues/-", "value": {"name": "Tasca Real", "area": "Alfama"}}])
    yield finished


class SideHandler(http.server.BaseHTTPRequestHandler):
    """A handler of the side servers (the sandbox proxy, the CDN): quiet, one call to answer."""

    def send_body(self, body: bytes, kind: str, headers: dict[str, str]):
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class SideServer(http.server.ThreadingHTTPServer):
    """A side server on 127.0.0.1 and a port of the system's choosing, in daemon threads (it
    stops with this process)."""

    daemon_threads = True

    def __init__(self, handler):
        super().__init__(("127.0.0.1", 0), handler)

    def start(self) -> int:
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self.server_address[1]
# The demo agent's A2UI booking form (src/demo/scripts.rs, `reserve`), one surface.
RESERVATION = [{"version": "v1.0", "createSurface": {
    "surfaceId": "reservation", "catalogId": "basic",
    "components": [
        {"id": "root", "component": "Card", "child": "form"},
        {"id": "form", "component": "Column", "children": ["title", "name", "guests", "send"]},
        {"id": "title", "component": "Text", "variant": "h2", "text": "Dinner at Tasca do Miradouro"},
        {"id": "name", "component": "TextField", "label": "Name for the booking", "value": {"path": "/name"},
         "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/name"}}},
                     "message": "Whose name should the table be under?"}]},
        {"id": "guests", "component": "Slider", "label": "Guests", "min": 2, "max": 20, "value": {"path": "/guests"}},
        {"id": "send", "component": "Button", "child": "send-label", "variant": "primary",
         "action": {"event": {"name": "reserve", "context": {
             "name": {"path": "/name"}, "guests": {"path": "/guests"}, "date": {"path": "/date"}}}},
         "checks": [{"condition": {"call": "required", "args": {"value": {"path": "/name"}}}, "message": "Add a name first."}]},
        {"id": "send-label", "component": "Text", "text": "Reserve"},
    ],
    "dataModel": {"name": "", "guests": 8, "date": "2026-06-04"},
}}]

# The demo agent's MCP App (src/demo/scripts.rs, `map_app`): its View and three venues.
MAP_URI = "ui://lisbon/venue-map"
VENUES = [
    {"name": "Tasca do Miradouro", "area": "Alfama", "price": "€€", "capacity": 14, "rating": 4.7,
     "note": "private room, river view, fado on Thursdays"},
    {"name": "Pátio da Graça", "area": "Graça", "price": "€€€", "capacity": 16, "rating": 4.6,
     "note": "courtyard garden, tasting menu"},
    {"name": "Casa das Sardinhas", "area": "Alfama", "price": "€€", "capacity": 20, "rating": 4.5,
     "note": "grilled fish, long shared tables"},
]


def mcp_proxied(req: dict) -> dict:
    """What an MCP middleware answers a proxied request with: the View for `resources/read`, a
    venue's details for `tools/call venue_details`, an `{error}` for anything else."""
    method, params = req.get("method"), req.get("params") or {}
    if method == "resources/read" and params.get("uri") == MAP_URI:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "demo", "map_view.html"), encoding="utf-8") as f:
            view = f.read()
        return {"contents": [{"uri": MAP_URI, "mimeType": "text/html;profile=mcp-app", "text": view}]}
    if method == "tools/call" and params.get("name") == "venue_details":
        name = (params.get("arguments") or {}).get("name")
        for v in VENUES:
            if v["name"] == name:
                text = f"{v['name']} ({v['area']}, {v['price']}): {v['note']}, up to {v['capacity']} people, rated {v['rating']}."
                return {"content": [{"type": "text", "text": text}]}
        return {"error": "no such venue"}
    return {"error": f"{method} is not offered"}


SANDBOX_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "mcp-sandbox")
# The reference page's placeholder host origin: what the proxy says before a site edits it.
SHIPPED_HOST = '<meta name="mcp-host-origin" content="https://www.example.com">'


def serve_sandbox(cert: str, key: str, host_origin: str) -> str:
    """The reference MCP Apps sandbox proxy (examples/mcp-sandbox, unchanged but for its
    `mcp-host-origin`, set to `host_origin` as a site would) over https, on 127.0.0.1 and a
    port of the system's choosing, in a daemon thread (it stops with this process). `/` and
    `/sandbox.js` are the edited proxy; `/unedited/` the page as shipped. Both are sent with
    `frame-ancestors` the chat's origin, as the reference page advises. Returns its URL."""
    with open(os.path.join(SANDBOX_DIR, "index.html"), encoding="utf-8") as f:
        shipped = f.read()
    if SHIPPED_HOST not in shipped:
        raise SystemExit("examples/mcp-sandbox/index.html: no mcp-host-origin placeholder to set")
    with open(os.path.join(SANDBOX_DIR, "sandbox.js"), "rb") as f:
        script = f.read()
    edited = shipped.replace(SHIPPED_HOST, f'<meta name="mcp-host-origin" content="{host_origin}">')
    files = {
        "/": (edited.encode(), "text/html; charset=utf-8"),
        "/sandbox.js": (script, "text/javascript; charset=utf-8"),
        "/unedited/": (shipped.encode(), "text/html; charset=utf-8"),
        "/unedited/sandbox.js": (script, "text/javascript; charset=utf-8"),
    }

    class Handler(SideHandler):
        def do_GET(self):
            LAST_REQUEST["at"] = time.monotonic()
            found = files.get(self.path)
            if found is None:
                self.send_error(404)
                return
            body, kind = found
            self.send_body(body, kind, {
                "content-security-policy": f"frame-ancestors {host_origin}",
                "cache-control": "no-store",
            })

    class Server(SideServer):
        def handle_error(self, request, client_address):
            # A client that refuses the throwaway certificate (a browser's own background
            # connections do) is no error of the test's.
            pass

    server = Server(Handler)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    # The handshake in each request's thread, not in the one that accepts.
    server.socket = tls.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    return f"https://127.0.0.1:{server.start()}/"


CDN_PREFIX = re.compile(r"https://cdn\.jsdelivr\.net/npm/agui-leptos@[^/]+/")


def serve_cdn(folder: str) -> str:
    """The installed package's folder as a CDN serves it: on another origin (127.0.0.1, a port
    of the system's choosing), with CORS, in a daemon thread; the same files under `/mirror/`
    too (a second place for `setAssetPath()`). Returns its URL."""
    root = os.path.realpath(folder)
    kinds = {".js": "text/javascript", ".wasm": "application/wasm", ".bin": "application/octet-stream"}

    class Handler(SideHandler):
        def do_GET(self):
            LAST_REQUEST["at"] = time.monotonic()
            name = self.path.split("?")[0].lstrip("/")
            name = name[len("mirror/"):] if name.startswith("mirror/") else name
            path = os.path.realpath(os.path.join(root, name))
            if not path.startswith(root + os.sep) or not os.path.isfile(path):
                self.send_error(404)
                return
            with open(path, "rb") as f:
                body = f.read()
            kind = kinds.get(os.path.splitext(path)[1], "application/octet-stream")
            self.send_body(body, kind, {"access-control-allow-origin": "*"})

    return f"http://127.0.0.1:{SideServer(Handler).start()}/"


def make_app(dist: str, example: str | None, gzip_static: bool = False, ai_sdk: str | None = None,
             proto: str | None = None, sandbox: str | None = None, hosts: str | None = None,
             cdn: str | None = None, threads: str | None = None) -> FastAPI:
    app = FastAPI()

    if hosts and cdn:
        plain = os.path.join(hosts, "plain")

        def plain_page(name: str) -> Response:
            LAST_REQUEST["at"] = time.monotonic()
            with open(os.path.join(plain, name), encoding="utf-8") as f:
                html = f.read()
            if not CDN_PREFIX.search(html):
                return Response(f"examples/hosts/plain/{name}: no CDN URL", status_code=500)
            return HTMLResponse(CDN_PREFIX.sub(cdn, html))

        @app.get("/hosts/plain/")
        def plain_index():
            return plain_page("index.html")

        @app.get("/hosts/plain/{name}.html")
        def plain_other(name: str):
            if name not in ("assets", "full"):
                return Response(status_code=404)
            return plain_page(name + ".html")

        app.mount("/hosts/plain", StaticFiles(directory=plain), name="host-plain")
    if hosts:
        for name in ("react", "vue", "webpack"):
            built = os.path.join(hosts, name, "dist")
            if os.path.isdir(built):
                app.mount(f"/hosts/{name}", StaticFiles(directory=built, html=True), name=f"host-{name}")

    @app.post("/elsewhere")
    async def elsewhere(req: Request):
        ELSEWHERE.append({k.lower(): v for k, v in req.headers.items()})
        return await agent(req)

    @app.post("/moved")
    def moved():
        # An endpoint that redirects: the chat must not follow it (with the page's headers).
        LAST_REQUEST["at"] = time.monotonic()
        return Response(status_code=307, headers={"location": "/elsewhere"})

    @app.post("/huge-error")
    def huge_error():
        # An error with a 20 MB body: the chat reads only its start.
        LAST_REQUEST["at"] = time.monotonic()
        return Response(content=b"E" * (20 << 20), status_code=500, media_type="text/plain")

    @app.get("/elsewhere")
    def elsewhere_hits():
        LAST_REQUEST["at"] = time.monotonic()
        return ELSEWHERE

    @app.post("/agent")
    async def agent(req: Request):
        LAST_REQUEST["at"] = time.monotonic()
        body = await req.json()
        REQUESTS.append(body)
        inp = RunAgentInput.model_validate(body)
        enc = EventEncoder(accept=req.headers.get("accept"))

        async def gen():
            for item in script(inp, body):
                if isinstance(item, float):
                    if item:
                        await asyncio.sleep(item)
                    continue
                yield enc.encode(item)

        return StreamingResponse(gen(), media_type=enc.get_content_type())

    # A site's short-lived tokens (site.html): POST /token issues the only valid one, POST
    # /expire-token makes it invalid; /secure-agent answers only with the valid one (401
    # otherwise, counted).
    TOKENS = {"valid": None, "issued": 0, "refused": 0}

    @app.post("/token")
    def token():
        LAST_REQUEST["at"] = time.monotonic()
        TOKENS["issued"] += 1
        TOKENS["valid"] = f"token-{TOKENS['issued']}"
        return PlainTextResponse(TOKENS["valid"])

    @app.post("/expire-token")
    def expire_token():
        TOKENS["valid"] = None
        return TOKENS

    @app.get("/token-stats")
    def token_stats():
        LAST_REQUEST["at"] = time.monotonic()
        return TOKENS

    @app.post("/secure-agent")
    async def secure_agent(req: Request):
        auth = req.headers.get("authorization")
        if TOKENS["valid"] is None or auth != f"Bearer {TOKENS['valid']}":
            TOKENS["refused"] += 1
            return JSONResponse({"error": "token expired"}, status_code=401)
        return await agent(req)

    @app.get("/site/")
    def site():
        LAST_REQUEST["at"] = time.monotonic()
        with open(os.path.join(here, "site.html"), encoding="utf-8") as f:
            return HTMLResponse(f.read())

    @app.get("/threads/")
    def threads_page():
        # The reference thread store (examples/threads-server), on another origin.
        LAST_REQUEST["at"] = time.monotonic()
        with open(os.path.join(here, "threads.html"), encoding="utf-8") as f:
            return HTMLResponse(f.read().replace("THREADS_URL", threads or ""))

    @app.get("/requests")
    def requests():
        LAST_REQUEST["at"] = time.monotonic()
        return REQUESTS

    here = os.path.dirname(os.path.abspath(__file__))

    def page(path: str) -> HTMLResponse:
        # The host pages embed <agui-chat> without an endpoint (= the demo agent); here they
        # talk to this server instead.
        LAST_REQUEST["at"] = time.monotonic()
        with open(path, encoding="utf-8") as f:
            html = f.read()
        return HTMLResponse(html.replace("<agui-chat ", '<agui-chat endpoint="/agent" '))

    @app.get("/embed/")
    def embed(preload: str = ""):
        html = page(os.path.join(dist, "embed", "index.html"))
        if preload in ("none", "intent", "idle", "eager"):
            html = HTMLResponse(html.body.decode().replace("<agui-chat ", f'<agui-chat preload="{preload}" '))
        return html

    @app.get("/hostile/")
    def hostile():
        return page(os.path.join(here, "hostile.html"))

    @app.get("/linked/")
    def linked(optin: bool = False, allow: str = ""):
        # A page-mode chat with an auth header; `optin` adds `url-options`, `allow` an
        # `allowed-endpoints` list. The e2e suite visits it with crafted `?endpoint=`s.
        html = page(os.path.join(here, "linked.html")).body.decode()
        extra = (" url-options" if optin else "") + (f' allowed-endpoints="{allow}"' if allow else "")
        return HTMLResponse(html.replace("<agui-chat ", "<agui-chat" + extra + " "))

    # The policy docs/security.md documents for a host page (the agent on the same origin).
    strict_csp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'"

    @app.get("/strict/")
    def strict():
        html = page(os.path.join(here, "strict.html"))
        html.headers["content-security-policy"] = strict_csp
        return html

    @app.get("/strict-app/")
    def strict_app():
        # The app's own page (dist/index.html, its assets addressed from the root).
        LAST_REQUEST["at"] = time.monotonic()
        with open(os.path.join(dist, "index.html"), encoding="utf-8") as f:
            html = HTMLResponse(f.read())
        html.headers["content-security-policy"] = strict_csp
        return html

    @app.get("/mcp-proxy/")
    def mcp_proxy(proxy: str = ""):
        # The inline host page (the lean widget on this server's agent) with the site's sandbox
        # proxy (`--sandbox-cert`): the edited reference proxy, or (`?proxy=unedited`) the page
        # as shipped, or (`?proxy=http`) the proxy's address over plain http. The page's to set,
        # never the URL's.
        if not sandbox:
            return Response("no --sandbox-cert", status_code=404, media_type="text/plain")
        url = {"unedited": sandbox + "unedited/", "http": "http" + sandbox[len("https"):]}.get(proxy, sandbox)
        html = page(os.path.join(here, "inline.html")).body.decode()
        return HTMLResponse(html.replace("<agui-chat ", f'<agui-chat mcp-apps-proxy="{url}" '))

    @app.get("/declarative/")
    def declarative(scan: bool = False):
        # A `[data-agui-endpoint]` element in the page's content; `?scan=1`: the page opts in
        # to declarative mounting on the loader's URL.
        html = page(os.path.join(here, "declarative.html")).body.decode()
        if scan:
            html = html.replace("agui-chat.js", "agui-chat.js?scan")
        return HTMLResponse(html)

    @app.get("/inline/")
    def inline(hints: bool = False):
        # `?hints=1`: the page also tells the browser about the bundle up front.
        html = page(os.path.join(here, "inline.html"))
        if hints:
            links = ('<link rel="modulepreload" href="../agui-widget.js" />'
                     '<link rel="preload" as="fetch" crossorigin href="../agui-widget_bg.wasm" />')
            html = HTMLResponse(html.body.decode().replace("</head>", links + "</head>"))
        return html

    @app.get("/ai-sdk/")
    def ai_sdk_page():
        # The AI SDK server's route (`--ai-sdk`, e.g. http://127.0.0.1:PORT): another origin,
        # answering with CORS.
        LAST_REQUEST["at"] = time.monotonic()
        if not ai_sdk:
            return Response("no --ai-sdk server", status_code=404, media_type="text/plain")
        with open(os.path.join(here, "ai-sdk.html"), encoding="utf-8") as f:
            html = f.read()
        return HTMLResponse(html.replace("<agui-chat ", f'<agui-chat endpoint="{ai_sdk}/api/chat" '))

    @app.get("/proto/")
    def proto_page(transport: str = ""):
        # The protobuf binding's server (`--proto`): another origin, answering with CORS in
        # protobuf or SSE as the request's Accept admits. The page is the same both ways but
        # for `transport="protobuf"` (`?transport=protobuf`; any other value: the SSE default).
        LAST_REQUEST["at"] = time.monotonic()
        if not proto:
            return Response("no --proto server", status_code=404, media_type="text/plain")
        with open(os.path.join(here, "proto.html"), encoding="utf-8") as f:
            html = f.read()
        extra = ' transport="protobuf"' if transport == "protobuf" else ""
        return HTMLResponse(html.replace("<agui-chat ", f'<agui-chat endpoint="{proto}/agent"{extra} '))

    if gzip_static:
        root = os.path.realpath(dist)
        packed: dict[str, bytes] = {}

        @app.get("/{name:path}")
        def compressed(name: str):
            LAST_REQUEST["at"] = time.monotonic()
            full = os.path.realpath(os.path.join(root, name))
            if os.path.isdir(full):
                full = os.path.join(full, "index.html")
            if not full.startswith(root + os.sep) or not os.path.isfile(full):
                return Response(status_code=404)
            if full not in packed:
                with open(full, "rb") as f:
                    packed[full] = gzip.compress(f.read(), compresslevel=9)
            kind = mimetypes.guess_type(full)[0] or "application/octet-stream"
            return Response(packed[full], media_type=kind, headers={"content-encoding": "gzip"})

    if example:
        # The example Leptos app (examples/leptos-app, built by trunk).
        app.mount("/leptos-app", StaticFiles(directory=example, html=True), name="example")
    app.mount("/", StaticFiles(directory=dist, html=True), name="static")
    return app


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dist", required=True)
    ap.add_argument("--example", default=None)
    ap.add_argument("--port", type=int, default=8111)
    ap.add_argument("--idle", type=float, default=120.0)
    ap.add_argument("--gzip", action="store_true")
    ap.add_argument("--ai-sdk", default=None, help="the AI SDK server, http://127.0.0.1:PORT")
    ap.add_argument("--proto", default=None, help="the protobuf AG-UI server, http://127.0.0.1:PORT")
    ap.add_argument("--threads", default=None, help="the thread store, http://127.0.0.1:PORT/api/threads")
    ap.add_argument("--sandbox-cert", default=None, help="PEM certificate for the https sandbox proxy")
    ap.add_argument("--sandbox-key", default=None, help="its PEM key")
    ap.add_argument("--hosts", default=None, help="examples/hosts, built (scripts/hosts.sh)")
    ap.add_argument("--cdn", default=None, help="the installed package's folder")
    args = ap.parse_args()
    if args.ai_sdk is not None and not re.fullmatch(r"http://127\.0\.0\.1:[0-9]{1,5}", args.ai_sdk):
        ap.error("--ai-sdk must be http://127.0.0.1:PORT")
    if args.threads is not None and not re.fullmatch(r"http://127\.0\.0\.1:[0-9]{1,5}/api/threads", args.threads):
        ap.error("--threads must be http://127.0.0.1:PORT/api/threads")
    if args.proto is not None and not re.fullmatch(r"http://127\.0\.0\.1:[0-9]{1,5}", args.proto):
        ap.error("--proto must be http://127.0.0.1:PORT")

    def watchdog():
        while time.monotonic() - LAST_REQUEST["at"] < args.idle:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watchdog, daemon=True).start()
    sandbox = None
    if args.sandbox_cert and args.sandbox_key:
        sandbox = serve_sandbox(args.sandbox_cert, args.sandbox_key, f"http://127.0.0.1:{args.port}")
    cdn = serve_cdn(args.cdn) if args.cdn else None
    app = make_app(args.dist, args.example, args.gzip, args.ai_sdk, args.proto, sandbox, args.hosts, cdn,
                   args.threads)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
