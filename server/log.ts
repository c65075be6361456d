import pino from 'pino'

// Structured JSON logs. Secrets never reach a log line: tokens, passwords, cookies and
// authorization headers are censored wherever they appear in the logged object.
// Written synchronously: pino's default buffers lines and flushes them when the process exits, and
// when the output is a pipe whose reader has gone (a log collector that died, `| tee` ended), that
// flush retried the broken pipe for ever, so a stopped server never exited, whatever signal came
// (sonic-boom 4's flushSync). A synchronous line that meets a broken pipe is dropped, and so is
// every later one.
export function createLogger(level: string) {
  return pino(
    {
      level,
      base: { service: 'workneer' },
      redact: {
        paths: [
          'password',
          '*.password',
          'token',
          '*.token',
          'accessToken',
          '*.accessToken',
          'req.headers.authorization',
          'req.headers.cookie',
          'headers.authorization',
          'headers.cookie',
          'res.headers["set-cookie"]',
          'smtpUrl',
          'databaseUrl',
          '*.secret',
        ],
        censor: '[redacted]',
      },
    },
    pino.destination({ dest: 1, sync: true }),
  )
}

export type Logger = ReturnType<typeof createLogger>
