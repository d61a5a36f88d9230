// The page's own tool card for `search_venues`: a custom element whose `toolCall` property the
// chat sets on every change, arguments streaming included.
import type { AguiToolCall } from 'agui-leptos';

export class VenueCard extends HTMLElement {
  /** Each distinct argument text seen, in order (the e2e checks read it). */
  seen: string[] = [];

  set toolCall(call: AguiToolCall) {
    const args = JSON.stringify(call.args ?? null);
    if (this.seen[this.seen.length - 1] !== args) this.seen.push(args);
    this.dataset.status = call.status;
    this.dataset.updates = String(this.seen.length);
    const city = (call.args as { city?: string } | null)?.city ?? '…';
    this.textContent = `Venues in ${city} (${call.status})`;
  }
}

if (!customElements.get('host-venue-card')) customElements.define('host-venue-card', VenueCard);
