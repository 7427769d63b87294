/** The IPs table: address, range, prefix, family, status, and which records point into each. */
import { Fragment, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Ip, IpUsage } from '../../lib/api-types';
import { routes } from '../../lib/paths';
import { Badge } from '../../ui/badge';
import './ips.css';

function UsageCell({ ip, usage, open, onToggle }: { ip: Ip; usage: IpUsage | undefined; open: boolean; onToggle: () => void }) {
  if (usage === undefined) return <span className="muted">…</span>;
  if (usage.total === 0) return <span className="muted">No records</span>;
  return (
    <button type="button" className="btn btn-link" aria-expanded={open} aria-controls={`usage-${ip.id}`} onClick={onToggle}>
      {usage.total} {usage.total === 1 ? 'record' : 'records'} {open ? '▴' : '▾'}
    </button>
  );
}

export function IpsTable({ ips, usage, usageFailed }: { ips: Ip[]; usage: Map<number, IpUsage> | undefined; usageFailed: boolean }) {
  const [open, setOpen] = useState<Set<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Address</th>
            <th scope="col">Range</th>
            <th scope="col" className="num">
              Prefix
            </th>
            <th scope="col">Family</th>
            <th scope="col">Status</th>
            <th scope="col">Used by</th>
          </tr>
        </thead>
        <tbody>
          {ips.map((ip) => {
            const u = usage?.get(ip.id) ?? (usage ? { ip_id: ip.id, total: 0, records: [] } : undefined);
            const isOpen = open.has(ip.id) && !!u && u.total > 0;
            return (
              <Fragment key={ip.id}>
                <tr>
                  <td className="mono strong">{ip.address}</td>
                  <td className="mono">{ip.first === ip.last ? <span className="muted">single address</span> : `${ip.first} – ${ip.last}`}</td>
                  <td className="num mono">/{ip.cidr}</td>
                  <td>{ip.ipv4 ? 'IPv4' : 'IPv6'}</td>
                  <td>{ip.active ? <Badge tone="success">Active</Badge> : <Badge tone="neutral">Inactive</Badge>}</td>
                  <td>{usageFailed ? <span className="muted">unavailable</span> : <UsageCell ip={ip} usage={u} open={isOpen} onToggle={() => toggle(ip.id)} />}</td>
                </tr>
                {isOpen ? (
                  <tr className="subrow" id={`usage-${ip.id}`}>
                    <td colSpan={6}>
                      <ul className="usage-list">
                        {u!.records.map((r) => (
                          <li key={`${r.domain}-${r.id}`}>
                            <Link to={`${routes.domain(r.domain)}?name=${encodeURIComponent(r.name)}`} className="mono">
                              {r.fqdn}
                            </Link>{' '}
                            <Badge tone="info">{r.record_type}</Badge> <span className="mono">{r.content}</span>
                          </li>
                        ))}
                        {u!.total > u!.records.length ? <li className="muted">and {u!.total - u!.records.length} more</li> : null}
                      </ul>
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
