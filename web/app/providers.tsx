/** App-wide providers: the query cache (and its reaction to a lost session and to an outage's end) and toasts. */
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { sessionKey } from '../lib/get-session';
import { handleSignedOut, setCsrfToken, watchAnswers } from '../lib/api-client';
import { outageWatch } from '../lib/outage';
import { queryClient } from '../lib/query-client';
import { ToastProvider } from '../ui/toast';

// Any call that finds the session gone sends the app to sign-in (RequireSession reacts).
handleSignedOut(() => {
  setCsrfToken(undefined);
  queryClient.setQueryData(sessionKey, null);
});

// Every answer tells the outage banner whether the service is read-only; once it answers again,
// what failed meanwhile is loaded again (what loaded fine is left as it is).
watchAnswers(outageWatch.saw);
outageWatch.subscribe((outage) => {
  if (!outage) void queryClient.invalidateQueries({ predicate: (q) => q.state.status === 'error' });
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}
