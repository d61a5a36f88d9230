import { createApp } from 'vue';
import 'agui-leptos';
import App from './App.vue';

// The page's own tool card for `search_venues` (the chat sets its `toolCall` property).
customElements.define('host-venue-card', class extends HTMLElement {
  seen = [];
  set toolCall(call) {
    const args = JSON.stringify(call.args ?? null);
    if (this.seen[this.seen.length - 1] !== args) this.seen.push(args);
    this.dataset.status = call.status;
    this.dataset.updates = String(this.seen.length);
    this.textContent = `Venues in ${call.args?.city ?? '…'} (${call.status})`;
  }
});

createApp(App).mount('#app');
