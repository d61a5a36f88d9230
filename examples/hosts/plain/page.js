// The page's own code: a renderer element, a code block renderer, a frontend tool and the
// run's end, on the element.
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

// A ```chart block (`label value` lines) drawn as a bar chart: SVG built with DOM methods, the
// labels as text nodes (the block's text comes from the agent). The chat sets `code` as the
// block streams and `complete` when it is finished.
const SVG = 'http://www.w3.org/2000/svg';
customElements.define('demo-chart', class extends HTMLElement {
  #code = '';
  set code(text) { this.#code = String(text); this.draw(); }
  set complete(done) { this.dataset.complete = String(done); }
  draw() {
    const rows = this.#code.split('\n')
      .map((line) => line.trim().match(/^(.+?)\s+(-?\d+(?:\.\d+)?)$/))
      .filter(Boolean)
      .slice(0, 50)
      .map(([, label, value]) => [label, Number(value)]);
    const max = Math.max(1, ...rows.map(([, v]) => Math.abs(v)));
    const svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('viewBox', `0 0 300 ${rows.length * 24 + 4}`);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `Bar chart of ${rows.length} values`);
    rows.forEach(([label, value], i) => {
      const bar = document.createElementNS(SVG, 'rect');
      bar.setAttribute('x', '100');
      bar.setAttribute('y', String(i * 24 + 4));
      bar.setAttribute('height', '18');
      bar.setAttribute('width', String((Math.abs(value) / max) * 190));
      bar.setAttribute('fill', 'currentColor');
      const text = document.createElementNS(SVG, 'text');
      text.setAttribute('x', '0');
      text.setAttribute('y', String(i * 24 + 18));
      text.setAttribute('font-size', '12');
      text.textContent = `${label} ${value}`;
      svg.append(bar, text);
    });
    this.dataset.bars = String(rows.length);
    this.replaceChildren(svg);
  }
});

const chat = document.querySelector('agui-chat');
// Properties, set before or after the element is defined (the loader may still be loading).
chat.renderers = { search_venues: 'host-venue-card' };
chat.codeRenderers = { chart: 'demo-chart' };
chat.tools = [{
  name: 'get_visitor_city',
  description: "The visitor's city",
  parameters: { type: 'object', properties: {} },
  handler: async () => ({ city: 'Lisbon' }),
}];
chat.addEventListener('agui:run-finished', (e) => {
  document.querySelector('[data-testid=host-finished]').textContent += e.detail.status + ' ';
});
