/** The app's one QueryClient: shared by the providers and the route loaders. */
import { QueryClient } from '@tanstack/react-query';
import { queryRetryDelay, shouldRetryQuery } from './retry-policy';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: shouldRetryQuery,
      retryDelay: queryRetryDelay,
      refetchOnWindowFocus: false,
    },
  },
});
