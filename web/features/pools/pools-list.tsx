/**
 * The zone's pools, one card each (they stack on a phone, nothing scrolls sideways): the name
 * linking to the pool's page, its type and policy, what DNS answers now, and each member up or down.
 */
import { Link } from 'react-router-dom';
import type { Pool } from '../../lib/api-types';
import { routes } from '../../lib/paths';
import { MemberBadges, PoolAnswer } from './member-badges';
import { POLICY_WORDS } from './pool-words';

interface Props {
  zone: string;
  pools: Pool[];
  /** Absent when the user may only read the zone. */
  onEdit?: (pool: Pool) => void;
  onDelete?: (pool: Pool) => void;
}

export function PoolsList({ zone, pools, onEdit, onDelete }: Props) {
  return (
    <ul className="pool-list" aria-label={`Pools of ${zone}`}>
      {pools.map((p) => (
        <li key={p.id} className="pool-item" data-testid="pool-item">
          <div className="pool-item-head">
            <h3>
              <Link to={routes.pool(zone, String(p.id))} className="mono">
                {p.name}
              </Link>
            </h3>
            <span className="muted small">
              {p.type} · {POLICY_WORDS[p.policy].label} · TTL {p.ttl}
            </span>
            {onEdit || onDelete ? (
              <span className="pool-item-actions">
                {onEdit ? (
                  <button type="button" className="btn btn-small" onClick={() => onEdit(p)} aria-label={`Edit pool ${p.name}`}>
                    Edit
                  </button>
                ) : null}
                {onDelete ? (
                  <button type="button" className="btn btn-small btn-ghost-danger" onClick={() => onDelete(p)} aria-label={`Delete pool ${p.name}`}>
                    Delete
                  </button>
                ) : null}
              </span>
            ) : null}
          </div>
          <dl className="facts">
            <div>
              <dt>Answer now</dt>
              <dd>
                <PoolAnswer answer={p.answer} />
              </dd>
            </div>
            <div>
              <dt>Members</dt>
              <dd>
                <MemberBadges members={p.members} />
              </dd>
            </div>
          </dl>
          {p.warnings.length > 0 ? <p className="field-warning">{p.warnings.join(' ')}</p> : null}
        </li>
      ))}
    </ul>
  );
}
