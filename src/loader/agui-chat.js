// agui-chat.js — the one script a host page includes:
//
//   <script type="module" src="https://your.cdn/agui/agui-chat.js"></script>
//   <agui-chat endpoint="https://your.agent/api" mode="popup"></agui-chat>
//
// It loads the wasm next to it (agui-leptos.js + agui-leptos_bg.wasm, resolved against this
// script's own URL, so the files can live on any origin that serves them with CORS), which
// defines <agui-chat>, mounts [data-agui-endpoint] elements and installs window.AguiChat.
// `ready` resolves to that API:
//
//   import { ready } from '…/agui-chat.js';
//   const AguiChat = await ready;
//   const chat = AguiChat.mount(el, { endpoint, headers, tools: [{ name, description,
//     parameters, handler: async (args) => result }] });
//   chat.unmount();
import init from './agui-leptos.js';

export const ready = init({ module_or_path: new URL('agui-leptos_bg.wasm', import.meta.url) })
  .then(() => {
    window.dispatchEvent(new CustomEvent('agui-chat:ready'));
    return window.AguiChat;
  });
