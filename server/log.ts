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

/** Logs a line scripts rely on (the listening ports) even when LOG_LEVEL hides info lines. */
export function announce(log: Logger, fields: Record<string, unknown>, msg: string): void {
  if (log.isLevelEnabled('info')) log.info(fields, msg);
  else process.stdout.write(`${JSON.stringify({ level: 30, time: new Date().toISOString(), ...fields, msg })}\n`);
}
