import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev -w web` serves the client with hot reload and forwards API calls to `npm start`'s server.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: { '/graphql': 'http://localhost:4000', '/api': 'http://localhost:4000' },
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 600 },
});
