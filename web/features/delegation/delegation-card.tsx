/**
 * "Check from outside" on the zone page: what the world sees. The parent's NS and DS, asked of
 * the parent zone's own server, against what zonedeck serves (nothing, and a clear word, when
 * RESOLVER does not recurse), a pending/active badge (pending until the parent lists exactly
 * our name servers, with what to set at the registrar), and the serial each name server answers.
 */
import type { Domain } from '../../lib/api-types';
import { fullTime, timeAgo } from '../../lib/format';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { TableWrap } from '../../ui/table-wrap';
import { ErrorState, Spinner } from '../../ui/states';
import { delegationState, DS_WORDS, SERVER_WORDS } from './delegation-words';
import { useCheckAgain, useDelegation, type Delegation } from './get-delegation';
import './delegation.css';

const list = (items: readonly string[]) =>
  items.length === 0 ? (
    <span className="muted">none</span>
  ) : (
    <ul className="plain-list mono">
      {items.map((i) => (
        <li key={i}>{i}</li>
      ))}
    </ul>
  );

function Pending({ d, zone }: { d: Delegation; zone: string }) {
  if (!d.parent || d.ns_match) return null;
  return (
    <Alert tone="warning" title="Pending: the parent does not delegate this zone to zonedeck yet">
      <p>
        {d.parent.ns.length === 0 ? `Resolvers find no name servers for ${zone}: the parent zone does not delegate it.` : `Resolvers are sent to ${d.parent.ns.join(', ')}.`} At your registrar, set the
        name servers of {zone} to exactly:
      </p>
      {list(d.expected.ns)}
    </Alert>
  );
}

/** Why the parent's view is missing: a resolver that does not recurse, no answer, or no parent server that answered. */
function NoParent({ d }: { d: Delegation }) {
  if (d.resolver_status === 'not_recursive') {
    return (
      <div data-testid="not-recursive">
        <Alert title="RESOLVER does not recurse">
          {d.resolver} answered without recursion (or refused, or referred elsewhere), so it cannot show what resolvers see, and this zone is not called delegated on its word. An operator points{' '}
          <code>RESOLVER</code> at a recursive resolver (the one this machine uses, for example).
        </Alert>
      </div>
    );
  }
  if (d.parent !== null) return null;
  if (d.resolver_status === 'no_answer' || d.parent_zone === null) {
    return (
      <Alert tone="warning" title="The resolver gave no usable answer">
        Check again in a moment.
      </Alert>
    );
  }
  return (
    <Alert tone="warning" title={`No server of the parent zone ${d.parent_zone} answered`}>
      {d.parent_servers.length === 0 ? 'The resolver found no name servers for it.' : `Asked: ${d.parent_servers.join(', ')} (only at public addresses). Check again in a moment.`}
    </Alert>
  );
}

function Comparison({ d }: { d: Delegation }) {
  const ds = DS_WORDS[d.ds_status];
  return (
    <TableWrap label="Delegation at the parent against what zonedeck serves">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Records</th>
            <th scope="col">The parent serves</th>
            <th scope="col">zonedeck expects</th>
            <th scope="col">Verdict</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">NS</th>
            <td>{d.parent ? list(d.parent.ns) : <span className="muted">no answer</span>}</td>
            <td>{list(d.expected.ns)}</td>
            <td>{d.ns_match ? <Badge tone="success">Delegated</Badge> : <Badge tone="warning">{d.parent ? 'Pending' : 'Not known'}</Badge>}</td>
          </tr>
          <tr>
            <th scope="row">DS</th>
            <td>{d.parent ? list(d.parent.ds) : <span className="muted">no answer</span>}</td>
            <td>{d.expected.ds.length ? list(d.expected.ds) : <span className="muted">none (unsigned)</span>}</td>
            <td>
              <Badge tone={ds.tone}>{ds.text}</Badge>
            </td>
          </tr>
        </tbody>
      </table>
    </TableWrap>
  );
}

function Servers({ d, serial }: { d: Delegation; serial: number }) {
  if (d.nameservers.length === 0) return null;
  return (
    <>
      <h3 className="delegation-servers-title">
        {d.parent && d.parent.ns.length > 0 ? 'What each listed name server answers' : "What zonedeck's name servers answer"} (zonedeck's serial: <span className="mono">{serial}</span>)
      </h3>
      <TableWrap label="SOA serial of each name server">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name server</th>
              <th scope="col">Addresses</th>
              <th scope="col">Serial</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {d.nameservers.map((n) => (
              <tr key={n.name} data-testid="nameserver-row">
                <th scope="row" className="mono">
                  {n.name}
                </th>
                <td className="mono">{n.addresses.length ? n.addresses.join(', ') : <span className="muted">not found</span>}</td>
                <td className="mono">{n.serial ?? '—'}</td>
                <td>
                  <Badge tone={SERVER_WORDS[n.status].tone}>{SERVER_WORDS[n.status].text}</Badge>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}

export function DelegationCard({ domain }: { domain: Domain }) {
  const q = useDelegation(domain.name);
  const again = useCheckAgain(domain.name);
  const d = q.data;
  const state = d ? delegationState(d) : null;
  return (
    <section className="card delegation-card" aria-labelledby="outside-title" aria-busy={q.isFetching || again.isPending}>
      <div className="card-header">
        <h2 id="outside-title">Check from outside {state ? <Badge tone={state.tone}>{state.text}</Badge> : null}</h2>
        {d && d.resolver !== null ? (
          <button type="button" className="btn" onClick={() => again.mutate()} disabled={again.isPending || q.isFetching}>
            {again.isPending ? 'Checking…' : 'Check again'}
          </button>
        ) : null}
      </div>
      {q.isPending ? (
        <p className="muted">
          <Spinner label="Asking the resolver" /> Asking the resolver what the world sees…
        </p>
      ) : q.isError ? (
        <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not check the delegation" />
      ) : d!.resolver === null ? (
        <p data-testid="no-resolver">
          No resolver is configured, so zonedeck cannot look at this zone from outside. An operator sets <code>RESOLVER</code> (the <code>host:port</code> of a recursive resolver) to see the
          parent&apos;s NS and DS records and each name server&apos;s serial here.
        </p>
      ) : (
        <>
          {again.isError ? <Alert title="Could not check again">{again.error.message}</Alert> : null}
          <p className="small muted">
            {d!.asked ? (
              <>
                Asked of the parent zone&apos;s server {d!.asked} ({d!.parent_zone === '.' ? 'the root' : d!.parent_zone}), found through {d!.resolver},{' '}
              </>
            ) : (
              <>Through {d!.resolver}, </>
            )}
            <time dateTime={d!.checked_at} title={fullTime(d!.checked_at)}>
              {timeAgo(d!.checked_at)}
            </time>
            .
          </p>
          <NoParent d={d!} />
          <Pending d={d!} zone={domain.name} />
          {d!.ds_status === 'mismatch' ? (
            <Alert title="The parent's DS matches none of this zone's keys">
              Validating resolvers will reject every answer for {domain.name}. Replace the DS at your registrar with this zone's (under “zonedeck expects” below), or remove it.
            </Alert>
          ) : null}
          <Comparison d={d!} />
          <Servers d={d!} serial={domain.serial_number} />
        </>
      )}
    </section>
  );
}
