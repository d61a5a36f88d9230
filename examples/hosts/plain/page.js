// The page's own code: a renderer element, a frontend tool and the run's end, on the element.
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

const chat = document.querySelector('agui-chat');
// Properties, set before or after the element is defined (the loader may still be loading).
chat.renderers = { search_venues: 'host-venue-card' };
chat.tools = [{
  name: 'get_visitor_city',
  description: "The visitor's city",
  parameters: { type: 'object', properties: {} },
  handler: async () => ({ city: 'Lisbon' }),
}];
chat.addEventListener('agui:run-finished', (e) => {
  document.querySelector('[data-testid=host-finished]').textContent += e.detail.status + ' ';
});
