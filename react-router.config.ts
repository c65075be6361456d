import type { Config } from '@react-router/dev/config'

export default {
  appDirectory: 'app',
  ssr: true,
  // The whole route manifest goes with the first page (decision 118): "lazy" discovery matched the
  // URL and each of its parent paths against every route on every page render (a third of React
  // Router's allocations per page) and asked the server for /__manifest patches later; with ~55
  // routes the whole manifest is a few KB.
  routeDiscovery: { mode: 'initial' },
  // `npm run bundle-report` builds beside the real build, with source maps (bench/bundle-report.ts).
  ...(process.env.BUNDLE_REPORT === '1' && { buildDirectory: 'build-report' }),
} satisfies Config
