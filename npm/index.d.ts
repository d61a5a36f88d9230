// The types of the npm package `agui-leptos` (its entries `agui-leptos` and `agui-leptos/full`).
// The options and the events are generated from the option table (src/embed/table.rs) by
// tests/manifest.rs; the rest is written here.

/** A language the chat ships a catalog for; any other tag falls back to the browser's. */
export type AguiLang = 'en' | 'de' | (string & {});

/** A suggestion chip: its prompt (`prompt` or `title`) and an optional hint. */
export interface AguiSuggestion {
  prompt?: string;
  title?: string;
  hint?: string;
  description?: string;
}

/** A frontend tool, executed in the page when the agent calls it. */
export interface AguiTool {
  name: string;
  description?: string;
  /** The JSON Schema of its arguments. */
  parameters?: Record<string, unknown>;
  /** Its result: a JSON value, or a promise of one; a throw is the tool's error result. */
  handler: (args: any) => unknown;
}

/** The agent's `AgentCapabilities` (AG-UI): omitted fields are unknown, never unsupported. */
export interface AguiCapabilities {
  identity?: { name?: string; [key: string]: unknown };
  multimodal?: {
    input?: { image?: boolean; audio?: boolean; video?: boolean; pdf?: boolean; file?: boolean };
    [key: string]: unknown;
  };
  tools?: { clientProvided?: boolean; [key: string]: unknown };
  [key: string]: unknown;
}

/** How a run ended. */
export type AguiRunStatus = 'success' | 'error' | 'cancelled' | 'truncated' | 'interrupted';

/** An open interrupt of a run (AG-UI `Interrupt`). */
export interface AguiInterrupt {
  id: string;
  reason: string;
  message?: string;
  toolCallId?: string;
  responseSchema?: Record<string, unknown>;
  expiresAt?: string;
  metadata?: Record<string, unknown>;
  subagentRunId?: string;
}

/** What a renderer element's `toolCall` property holds (see the `renderers` option). */
export interface AguiToolCall {
  id: string;
  name: string;
  status: 'streaming-args' | 'running' | 'success' | 'error' | 'awaiting-input' | 'awaiting-approval';
  /** The arguments so far: best-effort JSON while they stream. */
  args: unknown;
  result: unknown;
  error: string | null;
  durationMs: number | null;
}

// @generated-begin from src/embed/table.rs (AGUI_BLESS=1 cargo test --test manifest)
/** The options of `mount()`, and the properties of `<agui-chat>`. */
export interface AguiChatOptions {
  /**
   * The agent's endpoint. Absent or empty: the built-in demo agent where the bundle has it (the CDN
   * loader, `agui-leptos/full`); the default npm entry says that no agent is configured.
   * Attribute: `endpoint`.
   */
  endpoint?: string;
  /**
   * The endpoint's wire: `ai-sdk` sends the AI SDK's `useChat` request to an AI SDK route. A
   * response is read by its own content type either way, and an endpoint that answered an AI SDK
   * stream gets that shape from then on.
   * Attribute: `protocol`. Default: `ag-ui`.
   */
  protocol?: 'ag-ui' | 'ai-sdk';
  /**
   * With `protocol="ai-sdk"`: a run the visitor left in flight (a reload; Stop is not leaving) is
   * asked for again with `GET {endpoint}/{chatId}/stream` (the AI SDK's resumable streams; `204` =
   * nothing in flight).
   * Attribute: `resume`. Default: `false`.
   */
  resume?: boolean;
  /**
   * `protobuf` admits the AG-UI protobuf binding in `Accept` (`text/event-stream,
   * application/vnd.ag-ui.event+proto`); a response whose content type is exactly
   * `application/vnd.ag-ui.event+proto` is read as length-prefixed protobuf frames, anything else
   * as SSE. The lean widget fetches the protobuf decoder, a module of its own, when such a widget's
   * run starts.
   * Attribute: `transport`. Default: `sse`.
   */
  transport?: 'sse' | 'protobuf';
  /**
   * Extra request headers (authentication). A bad value is shown as a warning and ignored; an
   * endpoint that came from the page's URL is sent none.
   * Attribute: `headers`.
   */
  headers?: Record<string, string>;
  /**
   * `inline` fills the element (give it a height); `popup` is a floating launcher that opens a
   * panel (Escape closes it, the focus returns to the launcher); `sidebar` docks to the inline-end
   * edge and collapses to the launcher; `page` is the whole page.
   * Attribute: `mode`. Default: `inline`.
   */
  mode?: 'inline' | 'popup' | 'sidebar' | 'page';
  /**
   * `auto` follows `prefers-color-scheme`. A change applies in place.
   * Attribute: `theme`. Default: `auto`.
   */
  theme?: 'auto' | 'light' | 'dark';
  /**
   * The event inspector starts open (a bundle with the inspector: the CDN loader loads the full
   * build for it, or `agui-leptos/full`).
   * Attribute: `inspector`. Default: `false`.
   */
  inspector?: boolean;
  /**
   * Where conversations are saved (storage prefix `agui-leptos:v1:w:<key>`): widgets with different
   * keys keep separate conversation lists.
   * Attribute: `thread-key`.
   */
  threadKey?: string;
  /**
   * Where conversations are kept: `localStorage`, `sessionStorage` (until the tab closes) or
   * nowhere (memory only).
   * Attribute: `persist`. Default: `local`.
   */
  persist?: 'local' | 'session' | 'none';
  /**
   * How much this widget keeps in storage: the least recently active conversations are removed
   * first, with a notice (also at most 50 conversations).
   * Attribute: `storage-budget`. Default: `1000000`.
   */
  storageBudget?: number;
  /**
   * The UI language; default: the browser's. Each catalog but English is fetched when first used.
   * Attribute: `lang`.
   */
  lang?: AguiLang;
  /**
   * A popup starts closed unless `open`; a sidebar starts open unless `open="false"`. A change
   * applies in place.
   * Attribute: `open`.
   */
  open?: boolean;
  /**
   * The launcher's and the panel's accessible name, and the header's title.
   * Attribute: `title`.
   */
  title?: string;
  /**
   * The demo agent's playback speed (`0` = instant).
   * Attribute: `speed`. Default: `1`.
   */
  speed?: number;
  /**
   * The built-in demo's plug-ins (agent, venue and trip cards, `confirm_payment`, chips) also with
   * an `endpoint`; a widget without `endpoint` is the demo anyway where the bundle has it.
   * Attribute: `demo`. Default: `false`.
   */
  demo?: boolean;
  /**
   * Show the agent picker (endpoint and headers) in the header; always shown in `page` mode, never
   * otherwise: a widget's endpoint comes from its page, not from its visitors.
   * Attribute: `settings`. Default: `false`.
   */
  settings?: boolean;
  /**
   * Follow-up chips that send their prompt.
   * Attribute: `suggestions`.
   */
  suggestions?: Array<string | AguiSuggestion>;
  /**
   * Whether requests carry the browser's cookies and HTTP authentication (`include`: cross-origin
   * too; the agent must allow it with CORS).
   * Attribute: `credentials`. Default: `same-origin`.
   */
  credentials?: 'same-origin' | 'include' | 'omit';
  /**
   * A redirect from the endpoint fails the run with its own message; `follow` lets it through (with
   * the page's headers).
   * Attribute: `redirects`. Default: `error`.
   */
  redirects?: 'error' | 'follow';
  /**
   * Lets the page's URL set those options (`?endpoint=…&theme=dark`); absent, the URL sets
   * nothing. Never headers, the mode, storage, the allow-list or the MCP Apps proxy. An endpoint
   * from the URL must be http(s) or relative and is sent no headers from the page.
   * Attribute: `url-options`.
   */
  urlOptions?: boolean | string;
  /**
   * The only endpoints a run may go to, whoever set the endpoint: `https://agent.example` allows
   * that origin, `/api/agui` that path and below on the page's origin.
   * Attribute: `allowed-endpoints`.
   */
  allowedEndpoints?: string | string[];
  /**
   * MCP Apps run in the site's sandbox proxy at that URL instead of the opaque `srcdoc` frame.
   * Never from the page's URL; a refused URL shows a notice and no View.
   * Attribute: `mcp-apps-proxy`.
   */
  mcpAppsProxy?: string;
  /**
   * `off` (JS: `false`): Send waits while the agent answers. By default what is sent meanwhile
   * waits in a queue (editable, removable) and goes out when the run ends.
   * Attribute: `queue`. Default: `on`.
   */
  queue?: boolean | 'off';
  /**
   * What may be attached (`image/*,.pdf,application/json`).
   * Attribute: `accept`. Default: `images, audio, video, PDF, text, Markdown, CSV, JSON`.
   */
  accept?: string;
  /**
   * The largest file (binary units; at most 100 MB).
   * Attribute: `max-file-bytes`. Default: `10MB`.
   */
  maxFileBytes?: number | string;
  /**
   * All the files of one message together (at most 100 MB).
   * Attribute: `max-message-bytes`. Default: `20MB`.
   */
  maxMessageBytes?: number | string;
  /**
   * Files per message (at most 100).
   * Attribute: `max-files`. Default: `10`.
   */
  maxFiles?: number;
  /**
   * `off` (JS: `false`): no attach button, no drop or paste of files.
   * Attribute: `attachments`. Default: `on`.
   */
  attachments?: boolean | 'off';
  /**
   * The agent's capabilities (AG-UI `AgentCapabilities`): `multimodal.input` narrows what may be
   * attached, `tools.clientProvided: false` offers the agent none of the page's frontend tools,
   * `identity.name` is the title when there is no `title`. Omitted means unknown, never
   * unsupported.
   * Attribute: `capabilities`.
   */
  capabilities?: AguiCapabilities;
  /**
   * When a collapsed popup or sidebar loads the chat: `intent` (the pointer over the launcher, its
   * focus, or a click), `idle` (when the browser is idle after the page's load), `eager` (at once),
   * `none` (on a click).
   * Attribute: `preload`. Default: `intent`.
   */
  preload?: 'intent' | 'idle' | 'eager' | 'none';
  /**
   * Frontend tools executed in the page: `{name, description, parameters, handler}`;
   * `handler(args)` returns a value or a promise (a throw is the tool's error result). The agent is
   * offered exactly these.
   * JS only.
   */
  tools?: AguiTool[];
  /**
   * Tool cards drawn by the page's own custom elements: `{tool_name: 'element-name'}`. The chat
   * creates the element in the card (by name, never from HTML) and sets its `toolCall` property on
   * every change, streaming arguments included.
   * JS only.
   */
  renderers?: Record<string, string>;
  /**
   * Uploads an attached file and returns its URL; the message then carries the URL instead of the
   * file's bytes.
   * JS only.
   */
  upload?: (file: File) => string | Promise<string>;
}

/** The `detail` of `agui:run-started`: A run started. */
export interface AguiRunStartedDetail {
  /** The conversation. */
  threadId: string;
  /** The run. */
  runId: string;
}

/**
 * The `detail` of `agui:state-changed`: The agent's state changed (at most once per animation
 * frame); read it with `element.state`.
 */
export interface AguiStateChangedDetail {
  /** The conversation. */
  threadId: string;
}

/**
 * The `detail` of `agui:interrupt`: New interrupts opened (their cards are shown and focused).
 */
export interface AguiInterruptDetail {
  /** The conversation. */
  threadId: string;
  /** The run's open interrupts. */
  interrupts: AguiInterrupt[];
}

/** The `detail` of `agui:run-finished`: A run ended. */
export interface AguiRunFinishedDetail {
  /** The conversation. */
  threadId: string;
  /** The run. */
  runId: string;
  /** How it ended. */
  status: AguiRunStatus;
  /** The error, worded as the chat shows it. */
  error: string | null;
}

/**
 * The `detail` of `agui:feedback`: The person rated an answer. The chat sends feedback nowhere
 * itself (AG-UI has no event for it).
 */
export interface AguiFeedbackDetail {
  /** The conversation. */
  threadId: string;
  /** The rated answer. */
  messageId: string;
  /** The rating. */
  rating: 'up' | 'down';
  /** The person's comment. */
  comment: string | null;
}

/** The events `<agui-chat>` dispatches (`bubbles`, `composed`), by name. */
export interface AguiChatEventMap {
  /** A run started. */
  'agui:run-started': CustomEvent<AguiRunStartedDetail>;
  /**
   * The agent's state changed (at most once per animation frame); read it with `element.state`.
   */
  'agui:state-changed': CustomEvent<AguiStateChangedDetail>;
  /** New interrupts opened (their cards are shown and focused). */
  'agui:interrupt': CustomEvent<AguiInterruptDetail>;
  /** A run ended. */
  'agui:run-finished': CustomEvent<AguiRunFinishedDetail>;
  /**
   * The person rated an answer. The chat sends feedback nowhere itself (AG-UI has no event for it).
   */
  'agui:feedback': CustomEvent<AguiFeedbackDetail>;
}
// @generated-end

/** What `mount()` returns. */
export interface AguiChatHandle {
  element: HTMLElement;
  /** Stops a run in flight and empties the element. */
  unmount(): Promise<boolean>;
  /** The agent's state now (a copy). */
  state(): unknown;
}

/** The chat's API, as `ready` resolves it and as `window.AguiChat` holds it. */
export interface AguiChatApi {
  mount(element: HTMLElement, options?: AguiChatOptions): AguiChatHandle;
  unmount(element: HTMLElement): Promise<boolean>;
  scan(root?: ParentNode): Promise<void>;
  readonly version: string;
}

/**
 * The `<agui-chat>` element. Every option is also a property (`title` and `lang` are
 * HTMLElement's own, reflecting their attributes); a property wins over its attribute.
 */
export interface AguiChatElement extends HTMLElement, Omit<AguiChatOptions, 'title' | 'lang'> {
  /** The agent's state now (a copy); undefined before the chat is mounted. */
  readonly state: unknown;
  addEventListener<K extends keyof AguiChatEventMap>(
    type: K,
    listener: (this: AguiChatElement, ev: AguiChatEventMap[K]) => any,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: AguiChatElement, ev: HTMLElementEventMap[K]) => any,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof AguiChatEventMap>(
    type: K,
    listener: (this: AguiChatElement, ev: AguiChatEventMap[K]) => any,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: AguiChatElement, ev: HTMLElementEventMap[K]) => any,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'agui-chat': AguiChatElement;
  }
}

/** The package's version (the crate's). */
export declare const version: string;
/**
 * Mounts a chat into `element` (an `<agui-chat>`: its options become its properties; any
 * other element gets a shadow root of its own). Works before the chat is loaded, and loads it.
 */
export declare function mount(element: HTMLElement, options?: AguiChatOptions): AguiChatHandle;
/** Unmounts the chat in `element`. */
export declare function unmount(element: HTMLElement): Promise<boolean>;
/** Mounts every `[data-agui-endpoint]` element under `root` (default: the document). */
export declare function scan(root?: ParentNode): Promise<void>;
/** `await ready` loads the chat and gives its API; importing it loads nothing. */
export declare const ready: PromiseLike<AguiChatApi>;
/**
 * Where the chat's files are served from, for a site that serves the package's `dist/cdn/`
 * folder itself (a CDN): a URL of that folder. Call it before the first chat loads; by
 * default the files are where the bundler put them.
 */
export declare function setAssetPath(url: string | URL): void;
