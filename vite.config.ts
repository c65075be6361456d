import { reactRouter } from '@react-router/dev/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [reactRouter()],
  resolve: { alias: { '~': new URL('./app', import.meta.url).pathname } },
  // The SSR build's entry is our server module, so the Node entry can pass the in-process API,
  // the hubs and the logger into every request's context.
  environments: { ssr: { build: { rollupOptions: { input: './server/app.ts' } } } },
  build: { assetsInlineLimit: 0, sourcemap: process.env.BUNDLE_REPORT === '1' },
})
