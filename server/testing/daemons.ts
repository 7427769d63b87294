/** Real name servers in tests (Knot, NSD): where their binaries are, and Knot's common configuration. */
import fs from 'node:fs';
import path from 'node:path';

/** A program's path; a missing one fails the test with how to install it, never skips it. */
export function daemonPath(name: string, pkg: string): string {
  for (const dir of ['/usr/sbin', '/usr/local/sbin', ...(process.env.PATH ?? '').split(':')]) {
    if (fs.existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  throw new Error(`${name} is not installed; this test needs it (Debian: apt-get install ${pkg})`);
}

/** A TSIG key as Knot's configuration names it. */
export interface KnotKey {
  name: string;
  algorithm: string;
  secret: string;
}

/**
 * The top of a knot.conf for a Knot run by a test: its own rundir and storage in `dir`, listening on
 * 127.0.0.1@`port`, logging to stdout, with zonedeck at 127.0.0.1@`primary` as the remote `zonedeck`
 * and the acl `notify-from-zonedeck`. With `key`, Knot signs its transfers with it and takes NOTIFY
 * only signed with it. The test appends its templates and zones.
 */
export const knotPreamble = (dir: string, port: number, primary: number, key?: KnotKey) => `server:
    rundir: "${dir}"
    listen: 127.0.0.1@${port}
log:
  - target: stdout
    any: info
database:
    storage: "${dir}"
${
  key
    ? `key:
  - id: ${key.name}
    algorithm: ${key.algorithm}
    secret: ${key.secret}
`
    : ''
}remote:
  - id: zonedeck
    address: 127.0.0.1@${primary}
${
  key
    ? `    key: ${key.name}
`
    : ''
}acl:
  - id: notify-from-zonedeck
    address: 127.0.0.1
${
  key
    ? `    key: ${key.name}
`
    : ''
}    action: notify
`;
