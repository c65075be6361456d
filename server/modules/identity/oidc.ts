import * as client from 'openid-client'

// OpenID Connect sign-in through openid-client; providers come from oidc-config.ts (environment).
import type { OidcProviderConfig } from './oidc-config.ts'

export interface ExternalClaims {
  subject: string
  email: string | null
  emailVerified: boolean
  firstName: string
  lastName: string
}

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)

export function createOidc(providers: OidcProviderConfig[]) {
  const configs = new Map<string, Promise<client.Configuration>>()

  function configOf(id: string) {
    const p = providers.find((x) => x.id === id)
    if (!p) return null
    let c = configs.get(id)
    if (!c) {
      const issuer = new URL(p.issuer)
      // Plain http is allowed only for a provider on this machine (tests, development).
      const options =
        issuer.protocol === 'http:' && isLoopback(issuer)
          ? { execute: [client.allowInsecureRequests] }
          : undefined
      c = client.discovery(
        issuer,
        p.clientId,
        p.clientSecret,
        p.clientSecret ? client.ClientSecretPost(p.clientSecret) : client.None(),
        options,
      )
      c.catch(() => configs.delete(id))
      configs.set(id, c)
    }
    return c
  }

  return {
    list: () => providers.map((p) => ({ id: p.id, name: p.name })),
    has: (id: string) => providers.some((p) => p.id === id),
    async authorizationUrl(
      id: string,
      params: { redirectUri: string; state: string; nonce: string; codeVerifier: string },
    ) {
      const config = await configOf(id)!
      return client
        .buildAuthorizationUrl(config, {
          redirect_uri: params.redirectUri,
          scope: 'openid email profile',
          response_type: 'code',
          state: params.state,
          nonce: params.nonce,
          code_challenge: await client.calculatePKCECodeChallenge(params.codeVerifier),
          code_challenge_method: 'S256',
        })
        .toString()
    },
    async finish(
      id: string,
      callbackUrl: URL,
      expected: { state: string; nonce: string; codeVerifier: string },
    ): Promise<ExternalClaims> {
      const config = await configOf(id)!
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      })
      let claims: Record<string, unknown> = { ...tokens.claims() }
      if (!claims.email && tokens.access_token) {
        claims = {
          ...claims,
          ...(await client.fetchUserInfo(config, tokens.access_token, String(claims.sub))),
        }
      }
      const name = typeof claims.name === 'string' ? claims.name.trim().split(/\s+/) : []
      return {
        subject: String(claims.sub),
        email: typeof claims.email === 'string' ? claims.email.toLowerCase() : null,
        emailVerified: claims.email_verified === true || claims.email_verified === 'true',
        firstName: String(claims.given_name ?? name[0] ?? '').slice(0, 60),
        lastName: String(claims.family_name ?? name.slice(1).join(' ') ?? '').slice(0, 60),
      }
    },
  }
}

export type Oidc = ReturnType<typeof createOidc>
