/** A server to talk to: `host:port`, or `[v6]:port` (RESOLVER, SECONDARIES, a parent's name server). */
export interface HostPort {
  host: string;
  port: number;
}

/** Parses `host:port` or `[2001:db8::53]:53`; throws naming the text otherwise. */
export function parseHostPort(text: string): HostPort {
  const m = /^\[(.+)\]:(\d+)$/.exec(text) ?? /^([^:]+):(\d+)$/.exec(text);
  if (!m) throw new Error(`"${text}" is not host:port`);
  return { host: m[1]!, port: Number(m[2]) };
}
