/** Structured JSON logs to stdout. Credentials are never logged: no query strings, no auth headers. */
import pino from 'pino';

export type Logger = pino.Logger;

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', '*.token', '*.apikey'], censor: '[redacted]' },
  });
}
