import http from 'node:http'
import Provider from 'oidc-provider'

// A real OpenID Connect provider (oidc-provider) on loopback. Its development login screen takes
// any login name: "ann" signs in as ann@example.test; a login containing "@" is used as the email.
// Consent is granted automatically for the test client.
export async function startOidcProvider(options: {
  redirectUris: string[]
  clientId?: string
  clientSecret?: string
}) {
  const clientId = options.clientId ?? 'workneer-test'
  const clientSecret = options.clientSecret ?? 'workneer-test-secret-0123456789'
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  const claimsOf = (login: string) => {
    const email = login.includes('@') ? login.toLowerCase() : `${login.toLowerCase()}@example.test`
    const local = email.split('@')[0]
    const given = local.split(/[._-]/)[0] ?? local
    return {
      sub: `sub-${local}`,
      email,
      email_verified: true,
      given_name: given[0].toUpperCase() + given.slice(1),
      family_name: 'Tester',
      name: `${given} Tester`,
    }
  }
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name'],
    },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['workneer-test-cookie-key-0123456789'] },
    ttl: {
      Interaction: 600,
      Grant: 3600,
      Session: 3600,
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
    },
    async findAccount(_ctx, id) {
      return { accountId: id, claims: async () => claimsOf(id) }
    },
    async loadExistingGrant(ctx) {
      const grantId =
        ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId)
      if (grantId) return ctx.oidc.provider.Grant.find(grantId)
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId,
      })
      grant.addOIDCScope('openid email profile')
      await grant.save()
      return grant
    },
  })
  provider.on('server_error', (_ctx: unknown, error: Error) =>
    console.error('oidc-provider server_error', error),
  )
  server.on('request', provider.callback())
  return {
    issuer,
    clientId,
    clientSecret,
    claimsOf,
    env: {
      OIDC_PROVIDERS: 'loopback',
      OIDC_LOOPBACK_ISSUER: issuer,
      OIDC_LOOPBACK_CLIENT_ID: clientId,
      OIDC_LOOPBACK_CLIENT_SECRET: clientSecret,
      OIDC_LOOPBACK_NAME: 'Loopback ID',
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Walks the provider's login screen with plain HTTP (for API tests): returns the callback URL with the code. */
export async function signInAtProvider(authorizationUrl: string, login: string) {
  const jar = new Map<string, string>()
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
  const keep = (r: Response) => {
    for (const c of r.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const i = pair.indexOf('=')
      jar.set(pair.slice(0, i), pair.slice(i + 1))
    }
  }
  let url = authorizationUrl
  let method = 'GET'
  let body: string | undefined
  for (let hops = 0; hops < 20; hops++) {
    const r = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: { cookie: cookie(), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    })
    keep(r)
    const location = r.headers.get('location')
    if (location) {
      const next = new URL(location, url)
      if (!next.href.startsWith(new URL(authorizationUrl).origin)) return next.href
      url = next.href
      method = 'GET'
      body = undefined
      continue
    }
    const html = await r.text()
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
    if (!action) throw new Error(`provider page without a form (status ${r.status}): ${html.slice(0, 500)}`)
    const fields = new URLSearchParams()
    for (const [tag] of html.matchAll(/<input[^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(tag)?.[1]
      if (name) fields.set(name, /value="([^"]*)"/.exec(tag)?.[1] ?? '')
    }
    if (fields.has('login')) fields.set('login', login)
    if (fields.has('password')) fields.set('password', 'any')
    url = new URL(action.replace(/&amp;/g, '&'), url).href
    method = 'POST'
    body = fields.toString()
  }
  throw new Error('too many redirects at the provider')
}
