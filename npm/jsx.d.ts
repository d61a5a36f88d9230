// `import 'agui-leptos/jsx'` (types only): <agui-chat> in React's JSX.IntrinsicElements, for
// TSX that uses the element directly rather than `agui-leptos/react`. Every option is typed;
// in React 19 objects are set as properties, in React 18 only strings reach the element (use
// the wrapper there).
import type { AguiChatElement, AguiChatOptions } from './index.js';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'agui-chat': DetailedHTMLProps<HTMLAttributes<AguiChatElement>, AguiChatElement> &
        Omit<AguiChatOptions, 'title' | 'lang'>;
    }
  }
}

export {};
