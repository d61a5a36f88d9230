// webpack 5 builds the React host's app (../react/src) as it is, with nothing for the widget:
// the package's wasm, its modules and the glue are emitted because the package references them
// statically (`new URL('./x.wasm', import.meta.url)`, `import('./x.js')`).
const path = require('path');

module.exports = {
  entry: path.resolve(__dirname, '../react/src/main.tsx'),
  output: { path: path.resolve(__dirname, 'dist'), publicPath: '/hosts/webpack/', clean: true },
  resolve: {
    extensions: ['.tsx', '.ts', '.js'],
    // This host's own node_modules (react and the packed agui-leptos), wherever the source is.
    modules: [path.resolve(__dirname, 'node_modules'), 'node_modules'],
  },
  module: {
    rules: [{ test: /\.tsx?$/, loader: 'esbuild-loader', options: { jsx: 'automatic', target: 'es2022' } }],
  },
  performance: { hints: false },
};
