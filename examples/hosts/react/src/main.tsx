import { StrictMode, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AguiChat } from 'agui-leptos/react';
import type { AguiChatElement, AguiRunStatus, AguiTool } from 'agui-leptos';
import './venue-card';

function App() {
  const [finished, setFinished] = useState<AguiRunStatus[]>([]);
  const chat = useRef<AguiChatElement>(null);
  // A new array (and handler) on every render: the chat is not remounted for it.
  const tools: AguiTool[] = [
    {
      name: 'get_visitor_city',
      description: "The visitor's city",
      parameters: { type: 'object', properties: {} },
      handler: async () => ({ city: 'Lisbon', renders: finished.length }),
    },
  ];
  return (
    <main>
      <h1>React host</h1>
      <p data-testid="host-finished">{finished.join(' ')}</p>
      <AguiChat
        ref={chat}
        endpoint="/agent"
        mode="inline"
        threadKey="react-host"
        headers={{ 'X-Host': 'react' }}
        tools={tools}
        renderers={{ search_venues: 'host-venue-card' }}
        suggestions={['Plan our offsite']}
        style={{ display: 'block', height: 640 }}
        onRunFinished={(e) => setFinished((f) => [...f, e.detail.status])}
        onStateChanged={(e) => {
          const id: string = e.detail.threadId;
          document.body.dataset.thread = id;
        }}
      />
    </main>
  );
}

// The element itself in TSX (`agui-leptos/jsx`), typed: a compile-time check only.
export const typed = <agui-chat endpoint="/agent" mode="popup" queue={false} />;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
