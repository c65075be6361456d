import { parseArgs } from 'node:util'
import { z } from 'zod'
import { loadConfig } from '../config.ts'
import { createLogger } from '../log.ts'
import { openDatabase, migrateToLatest } from '../db/database.ts'
import { createOutboxWorker } from '../jobs/outbox.ts'
import { createMailHandler, EMAIL_TOPIC, type EmailMessage } from '../jobs/mailer.ts'
import { createMemoryRateLimiter } from '../lib/rate-limit.ts'
import { createIdentityService } from '../modules/identity/service.ts'
import { createOidc } from '../modules/identity/oidc.ts'
import { runCli } from './run.ts'

// npm run admin:create -- --email ops@example.com [--first-name Ada] [--last-name Admin] [--language en]
// Makes (or promotes) a SuperAdmin. There is never a default password: the account gets a
// single-use link (48 hours) to choose one, mailed through SMTP_URL, or printed here without it.
await runCli(async () => {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      language: { type: 'string' },
    },
    strict: true,
  })
  const parsed = z
    .object({
      email: z
        .string({ error: '--email is required' })
        .trim()
        .toLowerCase()
        .pipe(z.email({ error: '--email must be an email address' })),
      firstName: z.string().trim().min(1).max(60).default('Super'),
      lastName: z.string().trim().min(1).max(60).default('Admin'),
      language: z
        .enum(['en', 'es', 'de', 'it', 'ru'], { error: '--language must be en, es, de, it or ru' })
        .default('en'),
    })
    .safeParse({
      email: values.email,
      firstName: values['first-name'],
      lastName: values['last-name'],
      language: values.language,
    })
  if (!parsed.success) {
    console.error(parsed.error.issues.map((i) => i.message).join('\n'))
    process.exit(2)
  }
  const config = loadConfig()
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel)
  const database = await openDatabase(config.database)
  try {
    await migrateToLatest(database)
    const mailer = createMailHandler({ smtpUrl: config.smtpUrl, from: config.mailFrom, log })
    let printed: EmailMessage | null = null
    const outbox = createOutboxWorker({
      db: database.db,
      log,
      handlers: {
        [EMAIL_TOPIC]: async (message: EmailMessage, row) => {
          if (config.smtpUrl) return mailer.handler(message, row)
          printed = message
        },
      },
    })
    const identity = createIdentityService({
      db: database.db,
      log,
      rateLimiter: createMemoryRateLimiter(),
      oidc: createOidc([]),
      publicUrl: config.publicUrl,
      secret: config.authSecret,
    })
    const { userId, created } = await identity.createAdmin(parsed.data)
    await outbox.drain()
    await outbox.stop()
    mailer.close()
    console.log(`${created ? 'Created' : 'Promoted'} SuperAdmin #${userId} <${parsed.data.email}>.`)
    if (config.smtpUrl)
      console.log('A link to choose the password was mailed to that address (valid 48 hours, single use).')
    else {
      const link = (printed as EmailMessage | null)?.text.match(
        /https?:\/\/\S+\/auth\/reset-password\?token=\S+/,
      )?.[0]
      console.log(
        `SMTP_URL is not set. Open this link to choose the password (valid 48 hours, single use):\n${link ?? '(see the outbox)'}`,
      )
    }
  } finally {
    await database.close()
  }
})
