import path from 'node:path'
import { z } from 'zod'
import { oidcProvidersFromEnv } from './modules/identity/oidc-config.ts'
import { invalidProxyEntries } from './http/client-address.ts'

// Every setting comes from the environment and is checked once at boot, so a bad value stops the
// server with one line that names it instead of failing later inside a request.
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const databaseUrl = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .refine(
    (v) => /^postgres(ql)?:\/\/[^/]+/.test(v) || /^(file:|sqlite:)/.test(v) || !v.includes('://'),
    'must be a postgres:// URL, or a SQLite file path (file:data/workneer.sqlite)',
  )

// A fee as a percentage with at most two decimals (12.5), kept as basis points (1250) so fees are integer arithmetic.
const percent = z.coerce
  .number({ error: 'must be a percentage (0 to 50, e.g. 10 or 12.5)' })
  .min(0, 'must be 0 to 50')
  .max(50, 'must be 0 to 50')
  .refine(
    (v) => Number.isInteger(Math.round(v * 100)) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-9,
    'must have at most two decimals',
  )
  .transform((v) => Math.round(v * 100))

const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
    .default('production'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a whole number')
    .min(0, 'must be 0–65535')
    .max(65535, 'must be 0–65535')
    .default(3000),
  DATA_DIR: z.string().default('data'),
  DATABASE_URL: databaseUrl.optional(),
  API_URL: z.url({ error: 'must be an http(s) URL' }).optional(),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .refine(
      (v) => new URL(v).pathname === '/',
      "must be the site's address without a path (https://workneer.example)",
    )
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  REDIS_PREFIX: z.string().default('workneer:'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Workneer <no-reply@workneer.local>'),
  SUPPORT_EMAIL: z.email({ error: 'must be an email address' }).default('support@workneer.local'),
  SEED_DEMO: bool.default(true),
  DEMO_PASSWORD: z.string().min(10, 'must be at least 10 characters').optional(),
  HUB_REVOCATION_SWEEP_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(100, 'must be at least 100')
    .default(10_000),
  // How often the job alerts' digest job looks for due digests (decision 328).
  ALERT_DIGEST_SWEEP_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(100, 'must be at least 100')
    .default(600_000),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], { error: 'must be a pino level' })
    .default('info'),
  ALLOWED_ORIGINS: z.string().default(''),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // Who may read /metrics (decision 262): a bearer token, or this machine only when unset.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  PLATFORM_FEE_PERCENT: percent.prefault(10),
  CLIENT_FEE_PERCENT: percent.prefault(3),
  // The platform's legal details printed on invoices (decision 311): each only when set.
  PLATFORM_LEGAL_NAME: z.string().trim().max(200, 'must be at most 200 characters').optional(),
  PLATFORM_ADDRESS: z.string().trim().max(500, 'must be at most 500 characters').optional(),
  PLATFORM_REGISTRATION: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  PLATFORM_VAT_ID: z.string().trim().max(30, 'must be at most 30 characters').optional(),
  PLATFORM_VAT_PERCENT: percent.optional(),
  PAYOUT_MINIMUM_MINOR: z.coerce
    .number({ error: 'must be a number of minor units' })
    .int('must be whole minor units')
    .min(1, 'must be at least 1')
    .max(100_000_000, 'must be at most 100000000')
    .default(2000),
  SANDBOX_GATEWAY_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // Stripe (decision 195): both keys or neither; without them the sandbox gateway takes payments.
  STRIPE_SECRET_KEY: z
    .string()
    .trim()
    .regex(
      /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/,
      'must be a Stripe secret or restricted key (sk_live_…, sk_test_…, rk_…)',
    )
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .trim()
    .regex(/^whsec_[A-Za-z0-9+/=]{8,}$/, "must be the webhook endpoint's signing secret (whsec_…)")
    .optional(),
  // The Connect endpoint's own signing secret, for connected accounts' events (decision 333).
  STRIPE_CONNECT_WEBHOOK_SECRET: z
    .string()
    .trim()
    .regex(/^whsec_[A-Za-z0-9+/=]{8,}$/, "must be the Connect webhook endpoint's signing secret (whsec_…)")
    .optional(),
  STRIPE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  // Refunds and auto-release (decisions 181 and 183): days, whole, 1 to 90.
  REFUND_RESPONSE_DAYS: z.coerce
    .number({ error: 'must be a number of days' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(90, 'must be at most 90')
    .default(7),
  // Disputes (decision 313): the days support has to decide one once its money is held.
  DISPUTE_DECISION_DAYS: z.coerce
    .number({ error: 'must be a number of days' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(90, 'must be at most 90')
    .default(7),
  AUTO_RELEASE_DAYS: z.coerce
    .number({ error: 'must be a number of days' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(90, 'must be at most 90')
    .default(14),
  // The reverse proxies in front of this server (decision 082): only their X-Forwarded-For is read.
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => !invalidProxyEntries(list).length,
      'must be IP addresses or CIDR blocks separated by commas (10.0.0.1,10.1.0.0/16)',
    ),
})

export type Config = ReturnType<typeof loadConfig>

/** The settings that must be given with another. */
function checkTogether(e: z.output<typeof envSchema>) {
  // Links in mails and sign-in callbacks are built on this address, never on a request's Host
  // (decision 090): a production server that mails must be told it; elsewhere it is this machine.
  if (!e.PUBLIC_URL && e.NODE_ENV === 'production' && e.SMTP_URL)
    throw new ConfigError(
      "Invalid configuration: PUBLIC_URL must be set (the site's address, e.g. https://workneer.example) when SMTP_URL is set in production, for the links in mails",
    )
  if (!e.STRIPE_SECRET_KEY !== !e.STRIPE_WEBHOOK_SECRET)
    throw new ConfigError(
      `Invalid configuration: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together or not at all (${e.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'} is missing)`,
    )
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  // Empty values count as unset, as in most .env files.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const parsed = envSchema.safeParse(cleaned)
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `  ${i.path.join('.')}: ${i.message} (got ${JSON.stringify(cleaned[String(i.path[0])])})`,
    )
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  checkTogether(e)
  const dataDir = path.resolve(e.DATA_DIR)
  const database = describeDatabase(e.DATABASE_URL, dataDir)
  let oidcProviders
  try {
    oidcProviders = oidcProvidersFromEnv(cleaned)
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`)
  }
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    host: e.HOST,
    port: e.PORT,
    dataDir,
    database,
    apiUrl: e.API_URL,
    /** the site's origin as visitors reach it, without a trailing slash */
    publicUrl: new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).origin,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportEmail: e.SUPPORT_EMAIL,
    seedDemo: e.SEED_DEMO,
    demoPassword: e.DEMO_PASSWORD,
    hubRevocationSweepMs: e.HUB_REVOCATION_SWEEP_MS,
    alertDigestSweepMs: e.ALERT_DIGEST_SWEEP_MS,
    logLevel: e.LOG_LEVEL,
    /** signs login tokens; unset, a secret kept in the database is shared by every instance */
    authSecret: e.AUTH_SECRET,
    /** the bearer token /metrics asks for; unset, only loopback callers may read it */
    metricsToken: e.METRICS_TOKEN,
    oidcProviders,
    /** fees in basis points: the platform's share of a released installment, and the client's fee added at checkout */
    fees: { platformBps: e.PLATFORM_FEE_PERCENT, clientBps: e.CLIENT_FEE_PERCENT },
    /** signs the sandbox gateway's callbacks; unset, a secret kept in the database is shared by every instance */
    sandboxSecret: e.SANDBOX_GATEWAY_SECRET,
    /** the platform's legal details on invoices: address lines split at ";", VAT rate of its fees in basis points (null: none) */
    platform: {
      legalName: e.PLATFORM_LEGAL_NAME ?? '',
      address: (e.PLATFORM_ADDRESS ?? '')
        .split(';')
        .map((l) => l.trim())
        .filter(Boolean),
      registration: e.PLATFORM_REGISTRATION ?? '',
      vatId: e.PLATFORM_VAT_ID ?? '',
      vatBps: e.PLATFORM_VAT_PERCENT ?? null,
    },
    /** Stripe takes payments when its keys are set (the sandbox otherwise); apiUrl points the client elsewhere (tests) */
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            connectWebhookSecret: e.STRIPE_CONNECT_WEBHOOK_SECRET,
            apiUrl: e.STRIPE_API_URL,
            /** where the pay form's answer sends the browser: Stripe Checkout's site (the stand-in's in tests) */
            checkoutOrigin: e.STRIPE_API_URL
              ? new URL(e.STRIPE_API_URL).origin
              : 'https://checkout.stripe.com',
          }
        : undefined,
    /** days a freelancer has to accept or decline a refund request, and after which a submission without an answer is released */
    refundResponseDays: e.REFUND_RESPONSE_DAYS,
    autoReleaseDays: e.AUTO_RELEASE_DAYS,
    /** days support has to decide a dispute once its money is held (decision 313) */
    disputeDecisionDays: e.DISPUTE_DECISION_DAYS,
    /** the smallest payout, in minor units of the payout's currency (decision 185) */
    payoutMinimumMinor: e.PAYOUT_MINIMUM_MINOR,
    allowedOrigins: e.ALLOWED_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    /** addresses and CIDR blocks of the reverse proxies whose X-Forwarded-For is believed */
    trustProxy: e.TRUST_PROXY,
  }
}

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string }

function describeDatabase(url: string | undefined, dataDir: string): DatabaseTarget {
  if (!url) return { kind: 'sqlite', file: path.join(dataDir, 'workneer.sqlite') }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url }
  const file = url.replace(/^(file|sqlite):(\/\/)?/, '')
  return { kind: 'sqlite', file: file === ':memory:' ? file : path.resolve(file) }
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}
