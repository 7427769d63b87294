/** The four roles, one line each: what a member with it may do on the team's zones. */
import { ROLE_WORDS, ROLES, roleLabel } from '../../lib/role-words';
import './teams.css';

export function RoleList() {
  return (
    <dl className="role-list" aria-label="Team roles">
      {ROLES.map((r) => (
        <div key={r}>
          <dt>{roleLabel(r)}</dt>
          <dd>{ROLE_WORDS[r]}</dd>
        </div>
      ))}
    </dl>
  );
}
