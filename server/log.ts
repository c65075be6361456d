import pino from 'pino'

// Structured JSON logs. Secrets never reach a log line: tokens, passwords, cookies and
// authorization headers are censored wherever they appear in the logged object.
export function createLogger(level: string) {
  return pino({
    level,
    base: { service: 'workneer' },
    redact: {
      paths: [
        'password', '*.password', 'token', '*.token', 'accessToken', '*.accessToken',
        'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie',
        'res.headers["set-cookie"]', 'smtpUrl', 'databaseUrl', '*.secret',
      ],
      censor: '[redacted]',
    },
  })
}

export type Logger = ReturnType<typeof createLogger>
