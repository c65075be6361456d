import { z } from 'zod'

// OpenID Connect sign-in for any provider configured by environment:
//   OIDC_PROVIDERS=google,microsoft          (ids; each then reads its own variables)
//   OIDC_GOOGLE_ISSUER, OIDC_GOOGLE_CLIENT_ID, OIDC_GOOGLE_CLIENT_SECRET, OIDC_GOOGLE_NAME (shown on buttons)
// or one provider without a list: OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_NAME (id "oidc").
// Discovery happens on first use, so a provider that is down does not stop the server.
export interface OidcProviderConfig {
  id: string
  name: string
  issuer: string
  clientId: string
  clientSecret?: string
}

const providerSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/, 'must be lowercase letters, digits or -'),
  name: z.string().min(1),
  issuer: z.url({ error: 'must be an http(s) URL' }),
  clientId: z.string().min(1, 'is required'),
  clientSecret: z.string().optional(),
})

export function oidcProvidersFromEnv(env: NodeJS.ProcessEnv = process.env): OidcProviderConfig[] {
  const v = (k: string) => (env[k] ? env[k] : undefined)
  const ids = (v('OIDC_PROVIDERS') ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)
  const out: OidcProviderConfig[] = []
  const read = (id: string, prefix: string) => {
    const parsed = providerSchema.safeParse({
      id,
      name: v(`${prefix}NAME`) ?? id[0].toUpperCase() + id.slice(1),
      issuer: v(`${prefix}ISSUER`),
      clientId: v(`${prefix}CLIENT_ID`),
      clientSecret: v(`${prefix}CLIENT_SECRET`),
    })
    if (!parsed.success)
      throw new Error(
        `OpenID Connect provider ${id}: ${parsed.error.issues
          .map(
            (i) =>
              `${prefix}${String(i.path[0])
                .replace(/[A-Z]/g, (c) => `_${c}`)
                .toUpperCase()} ${i.message}`,
          )
          .join('; ')}`,
      )
    out.push(parsed.data)
  }
  for (const id of ids) read(id, `OIDC_${id.toUpperCase().replace(/-/g, '_')}_`)
  if (!ids.length && v('OIDC_ISSUER')) read('oidc', 'OIDC_')
  return out
}
