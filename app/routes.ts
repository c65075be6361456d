import { type RouteConfig, index, layout, route } from '@react-router/dev/routes'

// Mirrors the route table of SPEC §2. Every screen sits in the common layout (top bar, page, footer).
export default [
  layout('routes/layout.tsx', [
    index('routes/home.tsx'),
    route('auth/not-found', 'routes/auth/not-found.tsx'),
    route('*', 'routes/catch-all.tsx'),
  ]),
  // A deliberately trivial page: the bench's baseline for what React Router costs on its own.
  route('_bench/trivial', 'routes/bench-trivial.tsx'),
] satisfies RouteConfig
