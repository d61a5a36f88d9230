import { defineConfig } from 'vite';
import vue from '@vitejs/plugin-vue';

// The one line the chat needs in a Vue app: <agui-chat> is a custom element, not a component.
export default defineConfig({
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'agui-chat' } } })],
});
