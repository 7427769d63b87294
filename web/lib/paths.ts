/** Every URL the SPA uses: its own routes and the BFF endpoints behind them. */
const enc = encodeURIComponent;

export const routes = {
  signIn: '/sign-in',
  domains: '/domains',
  domain: (name: string) => `/domains/${enc(name)}`,
  history: (name: string) => `/domains/${enc(name)}/history`,
  importZone: (name: string) => `/domains/${enc(name)}/import`,
  traffic: (name: string) => `/domains/${enc(name)}/traffic`,
  ips: '/ips',
  tokens: '/tokens',
  tsigKeys: '/tsig-keys',
  account: '/account',
  teams: '/teams',
  team: (name: string) => `/teams/${enc(name)}`,
  users: '/admin/users',
  audit: '/audit',
  templates: '/templates',
  template: (id: number) => `/templates/${id}`,
  search: '/search',
};

export const bff = {
  session: '/bff/session',
  signIn: '/bff/sign-in',
  signOut: '/bff/sign-out',
  reauthenticate: '/bff/reauthenticate',
  passkeyOptions: '/bff/passkeys/registration-options',
  passkeyRegister: '/bff/passkeys',
  passkeySignInOptions: '/bff/passkey-sign-in/options',
  passkeySignIn: '/bff/passkey-sign-in',
  signInMethods: '/bff/sign-in-methods',
  /** Single sign-on: a plain link (the browser goes to the provider and back). */
  oidcStart: '/bff/oidc/start',
  /** Links the provider's identity to the signed-in account (answers the provider's URL to go to). */
  oidcLink: '/bff/oidc/link',
  /** A sign-in through the provider that waits for the account's second factor. */
  oidcSecondFactor: '/bff/oidc/second-factor',
  signInSettings: '/bff/api/settings/sign-in',
  identities: '/bff/api/account/identities',
  passkeys: '/bff/api/account/passkeys',
  secondFactors: '/bff/api/account/second-factors',
  totp: '/bff/api/account/totp',
  totpConfirm: '/bff/api/account/totp/confirm',
  recoveryCodes: '/bff/api/account/recovery-codes',
  ipUsage: '/bff/ip-usage',
  ips: '/bff/api/ips',
  domains: '/bff/api/domains',
  domain: (name: string) => `/bff/api/domains/${enc(name)}`,
  retrieve: (name: string) => `/bff/api/domains/${enc(name)}/retrieve`,
  /** The zone's DNSSEC keys and rollover; POST `…/rollover` starts one now. */
  dnssec: (name: string) => `/bff/api/domains/${enc(name)}/dnssec`,
  dnssecRollover: (name: string) => `/bff/api/domains/${enc(name)}/dnssec/rollover`,
  deletedDomains: '/bff/api/deleted-domains',
  restoreDomain: (id: number) => `/bff/api/deleted-domains/${id}/restore`,
  records: (domain: string) => `/bff/api/domains/${enc(domain)}/records`,
  record: (domain: string, id: number) => `/bff/api/domains/${enc(domain)}/records/${id}`,
  /** The zone as a master file: GET downloads it (`<zone>.zone`), POST imports one. */
  zoneFile: (domain: string) => `/bff/api/domains/${enc(domain)}/zone`,
  rrsets: (domain: string) => `/bff/api/domains/${enc(domain)}/rrsets`,
  changes: (domain: string) => `/bff/api/domains/${enc(domain)}/changes`,
  stats: (domain: string) => `/bff/api/domains/${enc(domain)}/stats`,
  statsTop: (domain: string) => `/bff/api/domains/${enc(domain)}/stats/top`,
  teamEvents: (domain: string) => `/bff/api/domains/${enc(domain)}/team-events`,
  change: (domain: string, id: number) => `/bff/api/domains/${enc(domain)}/changes/${id}`,
  revert: (domain: string, id: number) => `/bff/api/domains/${enc(domain)}/changes/${id}/revert`,
  tokens: '/bff/api/tokens',
  token: (id: number) => `/bff/api/tokens/${id}`,
  tsigKeys: '/bff/api/tsig-keys',
  tsigKey: (name: string) => `/bff/api/tsig-keys/${enc(name)}`,
  account: '/bff/api/account',
  password: '/bff/api/account/password',
  sessions: '/bff/api/account/sessions',
  accountSession: (id: number | string) => `/bff/api/account/sessions/${enc(String(id))}`,
  teams: '/bff/api/teams',
  team: (name: string) => `/bff/api/teams/${enc(name)}`,
  members: (team: string) => `/bff/api/teams/${enc(team)}/members`,
  member: (team: string, username: string) => `/bff/api/teams/${enc(team)}/members/${enc(username)}`,
  teamInvitations: (team: string) => `/bff/api/teams/${enc(team)}/invitations`,
  teamInvitation: (team: string, username: string) => `/bff/api/teams/${enc(team)}/invitations/${enc(username)}`,
  /** The user's own invitations: list, accept (`…/accept`), decline (DELETE). */
  invitations: '/bff/api/invitations',
  invitation: (team: string) => `/bff/api/invitations/${enc(team)}`,
  acceptInvitation: (team: string) => `/bff/api/invitations/${enc(team)}/accept`,
  users: '/bff/api/users',
  user: (username: string) => `/bff/api/users/${enc(username)}`,
  userPassword: (username: string) => `/bff/api/users/${enc(username)}/password`,
  audit: '/bff/api/audit',
  templates: '/bff/api/templates',
  template: (id: number) => `/bff/api/templates/${id}`,
  templateApply: (id: number) => `/bff/api/templates/${id}/apply`,
  templateZones: (id: number) => `/bff/api/templates/${id}/zones`,
  search: '/bff/api/records',
  bulk: '/bff/api/records/bulk',
  batchRevert: (id: string) => `/bff/api/batches/${enc(id)}/revert`,
};

/** A post-sign-in destination from a `next` parameter, only if it is a path on this site. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || next.startsWith(routes.signIn)) return routes.domains;
  return next;
}
