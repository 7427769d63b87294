/**
 * The top of every view of a zone (its editor, history, traffic, import): the breadcrumb, the
 * zone's name as the page's heading, what the view shows, and the tabs between the views. The
 * editor names itself by the zone alone; the other views add their own crumb.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { routes } from '../../lib/paths';
import { EmptyState } from '../../ui/states';
import { AdministratorBanner } from './administrator-banner';
import { DomainTabs } from './domain-tabs';
import type { ZoneAccess } from './zone-access';

interface Props {
  name: string;
  /** The view's crumb after the zone's ("History"); none for the editor. */
  view?: string;
  /** The heading, when it is not the name itself (an internationalized name in Unicode). */
  title?: string;
  access: ZoneAccess | undefined;
  /** Beside the heading, at its right (Delete domain). */
  actions?: ReactNode;
  /** Under the heading: what the view shows, or the zone's facts. */
  children?: ReactNode;
}

export function ZonePageHeader({ name, view, title = name, access, actions, children }: Props) {
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={routes.domains}>Domains</Link> <span aria-hidden="true">/</span>{' '}
        {view ? (
          <>
            <Link to={routes.domain(name)}>{name}</Link> <span aria-hidden="true">/</span> <span aria-current="page">{view}</span>
          </>
        ) : (
          <span aria-current="page">{title}</span>
        )}
      </nav>
      <header className="page-header">
        <div>
          <h1 className="mono-title">{title}</h1>
          {children}
        </div>
        {actions}
      </header>
      {access?.heldBy ? <AdministratorBanner heldBy={access.heldBy} /> : null}
      <DomainTabs name={name} access={access} />
    </>
  );
}

/** A zone's view asked for a zone the user cannot see (deleted, or another account's). */
export function ZoneNotFound({ name }: { name: string }) {
  return (
    <div className="page">
      <EmptyState title={`No domain named ${name}`}>
        It may have been deleted, or it belongs to another account. <Link to={routes.domains}>Back to your domains</Link>
      </EmptyState>
    </div>
  );
}
