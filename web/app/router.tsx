/**
 * Routes. Pages load lazily (the first screen ships only the shell); a route's loader starts
 * its data request at the same time as its code, with the same query options the page uses.
 */
import { createBrowserRouter, Navigate } from 'react-router-dom';
import { accountQuery } from '../features/account/get-account';
import { sessionsQuery } from '../features/account/list-sessions';
import { auditQuery } from '../features/audit/list-audit';
import { auditFilterOfParams } from '../features/audit/audit-words';
import { domainQuery } from '../features/domains/get-domain';
import { domainsQuery } from '../features/domains/list-domains';
import { changesQuery, filterOfParams } from '../features/history/list-changes';
import { poolQuery } from '../features/pools/get-pool';
import { poolsQuery } from '../lib/list-pools';
import { recordsQuery } from '../features/records/list-records';
import { membersQuery } from '../features/teams/list-members';
import { teamsQuery } from '../lib/list-teams';
import { tokensQuery } from '../features/tokens/list-tokens';
import { tsigKeysQuery } from '../features/tsig-keys/list-tsig-keys';
import { webhooksQuery } from '../features/webhooks/list-webhooks';
import { queryClient } from '../lib/query-client';
import { routes } from '../lib/paths';
import { RequireSession } from './require-session';
import { Shell } from './shell';

/** Starts a fetch without waiting for it: the page shows its own loading state. */
function prefetch(start: Promise<void>): null {
  void start;
  return null;
}

export const router = createBrowserRouter([
  { path: routes.signIn, lazy: () => import('./pages/sign-in-page') },
  {
    element: (
      <RequireSession>
        <Shell />
      </RequireSession>
    ),
    children: [
      { index: true, element: <Navigate to={routes.domains} replace /> },
      {
        path: 'domains',
        lazy: () => import('./pages/domains-page'),
        loader: ({ request }) => {
          const u = new URL(request.url);
          return prefetch(queryClient.prefetchQuery(domainsQuery(u.searchParams.get('q') ?? '', Math.max(1, Number(u.searchParams.get('page')) || 1))));
        },
      },
      {
        path: 'domains/:name',
        lazy: () => import('./pages/domain-page'),
        loader: ({ params }) => {
          prefetch(queryClient.prefetchQuery(domainQuery(params.name!)));
          return prefetch(queryClient.prefetchQuery(recordsQuery(params.name!)));
        },
      },
      {
        path: 'domains/:name/history',
        lazy: () => import('./pages/domain-history-page'),
        loader: ({ params, request }) => {
          prefetch(queryClient.prefetchQuery(domainQuery(params.name!)));
          return prefetch(queryClient.prefetchQuery(changesQuery(params.name!, filterOfParams(new URL(request.url).searchParams))));
        },
      },
      {
        // The chart library (uPlot) loads with this page only, not with the dashboard's first JS.
        path: 'domains/:name/traffic',
        lazy: () => import('./pages/domain-traffic-page'),
        loader: ({ params }) => prefetch(queryClient.prefetchQuery(domainQuery(params.name!))),
      },
      {
        path: 'domains/:name/pools',
        lazy: () => import('./pages/domain-pools-page'),
        loader: ({ params }) => {
          prefetch(queryClient.prefetchQuery(domainQuery(params.name!)));
          return prefetch(queryClient.prefetchQuery(poolsQuery(params.name!)));
        },
      },
      {
        path: 'domains/:name/pools/:pool',
        lazy: () => import('./pages/pool-page'),
        loader: ({ params }) => {
          prefetch(queryClient.prefetchQuery(domainQuery(params.name!)));
          return prefetch(queryClient.prefetchQuery(poolQuery(params.name!, params.pool!)));
        },
      },
      {
        path: 'domains/:name/import',
        lazy: () => import('./pages/domain-import-page'),
        loader: ({ params }) => prefetch(queryClient.prefetchQuery(domainQuery(params.name!))),
      },
      { path: 'ips', lazy: () => import('./pages/ips-page') },
      { path: 'templates', lazy: () => import('./pages/templates-page') },
      { path: 'templates/:id', lazy: () => import('./pages/template-page') },
      { path: 'search', lazy: () => import('./pages/search-page') },
      {
        path: 'tokens',
        lazy: () => import('./pages/tokens-page'),
        loader: ({ request }) => prefetch(queryClient.prefetchQuery(tokensQuery(Math.max(1, Number(new URL(request.url).searchParams.get('page')) || 1)))),
      },
      {
        path: 'tsig-keys',
        lazy: () => import('./pages/tsig-keys-page'),
        loader: ({ request }) => prefetch(queryClient.prefetchQuery(tsigKeysQuery(Math.max(1, Number(new URL(request.url).searchParams.get('page')) || 1)))),
      },
      { path: 'webhooks', lazy: () => import('./pages/webhooks-page'), loader: () => prefetch(queryClient.prefetchQuery(webhooksQuery)) },
      { path: 'webhooks/:id', lazy: () => import('./pages/webhook-page') },
      {
        path: 'account',
        lazy: () => import('./pages/account-page'),
        loader: () => {
          prefetch(queryClient.prefetchQuery(accountQuery));
          return prefetch(queryClient.prefetchQuery(sessionsQuery));
        },
      },
      {
        path: 'teams',
        lazy: () => import('./pages/teams-page'),
        loader: ({ request }) =>
          prefetch(queryClient.prefetchQuery(teamsQuery(Math.max(1, Number(new URL(request.url).searchParams.get('page')) || 1), new URL(request.url).searchParams.get('all') === 'true'))),
      },
      { path: 'teams/:name', lazy: () => import('./pages/team-page'), loader: ({ params }) => prefetch(queryClient.prefetchQuery(membersQuery(params.name!))) },
      // Not prefetched: the users list answers 403 to anyone but an administrator, which the page tells first.
      { path: 'admin/users', lazy: () => import('./pages/users-page') },
      { path: 'admin/zones', lazy: () => import('./pages/all-zones-page') },
      { path: 'admin/setup', lazy: () => import('./pages/setup-page') },
      { path: 'audit', lazy: () => import('./pages/audit-page'), loader: ({ request }) => prefetch(queryClient.prefetchQuery(auditQuery(auditFilterOfParams(new URL(request.url).searchParams)))) },
      { path: '*', lazy: () => import('./pages/not-found-page') },
    ],
  },
]);
