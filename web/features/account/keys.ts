/** Query keys of the signed-in user's own account: `['account']` refreshes all of it. */
export const accountKeys = {
  all: ['account'] as const,
  me: ['account', 'me'] as const,
  sessions: ['account', 'sessions'] as const,
  secondFactors: ['account', 'second-factors'] as const,
  passkeys: ['account', 'passkeys'] as const,
  identities: ['account', 'identities'] as const,
};
