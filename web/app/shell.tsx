/**
 * The frame of every signed-in page: skip link, brand, navigation (Users only for an
 * administrator; Teams counts the user's pending invitations), the user's Account and sign-out,
 * and the note that the service is read-only for a moment.
 */
import { Suspense, useRef } from 'react';
import { NavLink, Outlet, useNavigate, useNavigation } from 'react-router-dom';
import { useAccount } from '../features/account/get-account';
import { useMyInvitations } from '../features/teams/list-my-invitations';
import { useSession } from '../lib/get-session';
import { useSignOut } from '../features/session/sign-out';
import { GlobalSearch } from '../features/search/global-search';
import { routes } from '../lib/paths';
import { LoadingState } from '../ui/states';
import { useTableLabels } from '../ui/use-table-labels';
import { OutageBanner } from './outage-banner';
import { useSiteMenu } from './use-site-menu';
import './shell.css';

export function Shell() {
  const session = useSession();
  const account = useAccount();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const invited = useMyInvitations().data?.length ?? 0;
  const menu = useSiteMenu();
  const main = useRef<HTMLElement>(null);
  useTableLabels(main);
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <div className="topbar-inner">
          <NavLink to={routes.domains} className="brand">
            <img src="/favicon.svg" alt="" width="24" height="24" />
            <span>zonedeck</span>
          </NavLink>
          {/* Shown on a narrow screen only: the navigation, the search and the user fold behind it. */}
          <button ref={menu.button} type="button" className="btn menu-button" aria-expanded={menu.open} aria-controls="site-menu" onClick={menu.toggle}>
            <span aria-hidden="true" className="menu-icon" />
            Menu
            {invited > 0 ? (
              <span className="nav-count" aria-hidden="true">
                {invited}
              </span>
            ) : null}
          </button>
          <div id="site-menu" className={`site-menu${menu.open ? ' open' : ''}`}>
            <nav aria-label="Main" className="mainnav">
              <NavLink to={routes.domains}>Domains</NavLink>
              <NavLink to={routes.teams}>
                Teams
                {invited > 0 ? ' ' : null}
                {invited > 0 ? (
                  <span className="nav-count" title={`${invited} pending invitation${invited === 1 ? '' : 's'}`}>
                    {invited}
                    <span className="visually-hidden"> pending invitation{invited === 1 ? '' : 's'}</span>
                  </span>
                ) : null}
              </NavLink>
              <NavLink to={routes.templates}>Templates</NavLink>
              <NavLink to={routes.ips}>IPs</NavLink>
              <NavLink to={routes.tokens}>API tokens</NavLink>
              <NavLink to={routes.tsigKeys}>TSIG keys</NavLink>
              <NavLink to={routes.webhooks}>Webhooks</NavLink>
              <NavLink to={routes.audit}>Audit log</NavLink>
              {account.data?.is_admin ? <NavLink to={routes.allZones}>All zones</NavLink> : null}
              {account.data?.is_admin ? <NavLink to={routes.users}>Users</NavLink> : null}
            </nav>
            <GlobalSearch />
            <div className="userbox">
              <NavLink to={routes.account} className="account-link" title="Your account: password and sessions">
                <span className="visually-hidden">Account of </span>
                {session.data?.username}
              </NavLink>
              <button type="button" className="btn btn-small" disabled={signOut.isPending} onClick={() => signOut.mutate(undefined, { onSettled: () => navigate(routes.signIn, { replace: true }) })}>
                Sign out
              </button>
            </div>
          </div>
        </div>
        <OutageBanner />
        {navigation.state === 'loading' ? <div className="progress" role="progressbar" aria-label="Loading page" /> : null}
      </header>
      <main ref={main} id="main" className="main" tabIndex={-1}>
        <Suspense fallback={<LoadingState />}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
