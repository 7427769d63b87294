import { describe, expect, it } from 'vitest';
import { passkeyAddress } from './passkey-origin';

const at = (url: string) => {
  const u = new URL(url);
  return { protocol: u.protocol, hostname: u.hostname, port: u.port, pathname: u.pathname, search: u.search };
};

describe('passkeyAddress', () => {
  it('finds nothing wrong with a name, localhost included', () => {
    expect(passkeyAddress(at('http://localhost:8080/sign-in'))).toBeNull();
    expect(passkeyAddress(at('https://dns.example.com/account'))).toBeNull();
  });

  it("offers localhost for the machine's own address, the same page and port", () => {
    expect(passkeyAddress(at('http://127.0.0.1:8080/sign-in?next=%2Fdomains'))).toEqual({ address: '127.0.0.1', localUrl: 'http://localhost:8080/sign-in?next=%2Fdomains' });
    expect(passkeyAddress(at('http://[::1]:8080/account'))).toEqual({ address: '[::1]', localUrl: 'http://localhost:8080/account' });
  });

  it('offers no name for another address: only PUBLIC_URL can give one', () => {
    expect(passkeyAddress(at('http://192.0.2.10:8080/sign-in'))).toEqual({ address: '192.0.2.10', localUrl: null });
    expect(passkeyAddress(at('https://[2001:db8::1]/sign-in'))).toEqual({ address: '[2001:db8::1]', localUrl: null });
  });
});
