/** What the load's steps send: JSON in and out, a bearer token or session cookie, a client address. */
export interface MarketplaceRequest {
  method?: string
  token?: string
  cookie?: string
  body?: unknown
  from?: string
}

/** One request of the marketplace's API or pages, as `npm run load` and bench/step-cost.ts send it. */
export function marketplaceFetch(base: string, pathname: string, init: MarketplaceRequest = {}) {
  return fetch(base + pathname, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.cookie ? { cookie: `session=${init.cookie}` } : {}),
      ...(init.from ? { 'x-forwarded-for': init.from } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
}
