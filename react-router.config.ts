import type { Config } from '@react-router/dev/config'

export default {
  appDirectory: 'app',
  ssr: true,
  // A page carries the manifest of its own routes; links in view fetch theirs (decision 314).
  routeDiscovery: { mode: 'lazy' },
  // `npm run bundle-report` builds beside the real build, with source maps (bench/bundle-report.ts).
  ...(process.env.BUNDLE_REPORT === '1' && { buildDirectory: 'build-report' }),
} satisfies Config
