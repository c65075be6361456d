import { type RouteConfig, index, layout, route } from '@react-router/dev/routes'

// Mirrors the route table of SPEC §2. Every screen sits in the common layout (top bar, page, footer).
export default [
  layout('routes/layout.tsx', [
    index('routes/home.tsx'),
    route('about-us', 'routes/content-page.tsx', { id: 'about-us' }),
    route('why-workneer', 'routes/content-page.tsx', { id: 'why-workneer' }),
    route('blogs', 'routes/blogs.tsx'),
    route('blogs/:id', 'routes/blog.tsx'),
    route('faq', 'routes/faq.tsx'),
    route('contact-us', 'routes/contact-us.tsx'),
    route('categories', 'routes/categories.tsx'),
    route('newsletter/unsubscribe/:token', 'routes/newsletter-unsubscribe.tsx'),
    route('_e2e/status/:status', 'routes/e2e-status.tsx'),
    route('auth/not-found', 'routes/auth/not-found.tsx'),
    route('auth/login', 'routes/auth/login.tsx'),
    route('auth/gotosign', 'routes/auth/gotosign.tsx'),
    route('auth/terms-and-conditions', 'routes/auth/terms.tsx'),
    route('auth/verify-email', 'routes/auth/verify-email.tsx'),
    route('auth/forgot-password', 'routes/auth/forgot-password.tsx'),
    route('auth/reset-password', 'routes/auth/reset-password.tsx'),
    route('auth/confirm-email', 'routes/auth/confirm-email.tsx'),
    route('auth/logout', 'routes/auth/logout.tsx'),
    route('auth/unauthorized', 'routes/auth/unauthorized.tsx'),
    route('auth/oidc/callback', 'routes/auth/oidc-callback.tsx'),
    route('auth/oidc/:provider', 'routes/auth/oidc-start.tsx'),
    route('auth/complete-signup', 'routes/auth/complete-signup.tsx'),
    route('profile/account-settings', 'routes/profile/account-settings.tsx'),
    route('*', 'routes/catch-all.tsx'),
  ]),
  // Form targets and resource routes of the shell (no page of their own).
  route('set-language', 'routes/set-language.tsx'),
  route('newsletter', 'routes/newsletter.tsx'),
  route('search', 'routes/search.tsx'),
  route('search/suggest', 'routes/search-suggest.tsx'),
  // A deliberately trivial page: the bench's baseline for what React Router costs on its own.
  route('_bench/trivial', 'routes/bench-trivial.tsx'),
] satisfies RouteConfig
