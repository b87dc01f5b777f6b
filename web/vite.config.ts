import { resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev -w web` serves the client with hot reload and forwards API calls to `npm start`'s server.
// Two pages: the shop (index.html) and the GraphiQL playground (playground.html, served at GET /graphql).
export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: { '/graphql': 'http://localhost:4000', '/api': 'http://localhost:4000' },
  },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    sourcemap: false,
    // The playground's editor (Monaco) is one large chunk, loaded only by the playground page.
    chunkSizeWarningLimit: 4000,
    rollupOptions: {
      input: { main: resolve(__dirname, 'index.html'), playground: resolve(__dirname, 'playground.html') },
      onwarn(warning, warn) {
        // graphiql marks modules "use no memo" for React's compiler, which we do not use.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
