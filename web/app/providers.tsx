/** App-wide providers: the query cache (and its reaction to a lost session) and toasts. */
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { sessionKey } from '../lib/get-session';
import { handleSignedOut, setCsrfToken } from '../lib/api-client';
import { queryClient } from '../lib/query-client';
import { ToastProvider } from '../ui/toast';

// Any call that finds the session gone sends the app to sign-in (RequireSession reacts).
handleSignedOut(() => {
  setCsrfToken(undefined);
  queryClient.setQueryData(sessionKey, null);
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}
