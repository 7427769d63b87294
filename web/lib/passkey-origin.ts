/**
 * Passkeys need the site opened by a name. WebAuthn's relying party is a domain (or `localhost`),
 * and browsers refuse one that is an IP address ("127.0.0.1 is an invalid domain"), so on a page
 * opened at an address no passkey can be made or used. This says so, and where the same server is
 * reachable by a name: at `localhost` when the address is the machine's own.
 */
export interface PasskeyAddress {
  /** The address the page was opened at. */
  address: string;
  /** The same page at `localhost`, when the address is a loopback one; null otherwise. */
  localUrl: string | null;
}

type Where = Pick<Location, 'protocol' | 'hostname' | 'port' | 'pathname' | 'search'>;

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Null when passkeys can work here; else the address the page was opened at, and a local name for it if there is one. */
export function passkeyAddress(where: Where): PasskeyAddress | null {
  const host = where.hostname;
  const v6 = host.startsWith('[') && host.endsWith(']');
  if (!v6 && !IPV4.test(host)) return null;
  const loopback = v6 ? host === '[::1]' : host.startsWith('127.');
  const port = where.port ? `:${where.port}` : '';
  return { address: host, localUrl: loopback ? `${where.protocol}//localhost${port}${where.pathname}${where.search}` : null };
}
