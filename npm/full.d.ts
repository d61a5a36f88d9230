// `agui-leptos/full`: the same API as `agui-leptos`, with the full build (demo agent, event
// inspector, A2UI, MCP Apps, protobuf) as the chat it loads.
export * from './index.js';
