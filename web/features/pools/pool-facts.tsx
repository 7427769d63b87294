/** The pool's settings in a line each: what it answers, how, and how its members are checked. */
import type { Pool } from '../../lib/api-types';
import { FALLBACK_WORDS, KIND_WORDS, plural, POLICY_WORDS } from './pool-words';
import { PoolAnswer } from './member-badges';

function checkText(c: Pool['check']): string {
  const parts = [`${KIND_WORDS[c.kind]} to port ${c.port}`];
  if (c.kind !== 'tcp') {
    parts.push(`path ${c.path}${c.host ? `, Host ${c.host}` : ''}`, `status ${c.expect_status[0]}–${c.expect_status[1]}`);
    if (c.expect_body) parts.push(`body contains “${c.expect_body}”`);
    if (c.kind === 'https' && !c.tls_verify) parts.push('certificate not verified');
  }
  parts.push(`every ${c.interval_s} s, timeout ${c.timeout_ms} ms`, `down after ${plural(c.failures, 'failed check')}, up after ${plural(c.successes, 'good check')}`);
  return parts.join('; ');
}

export function PoolFacts({ pool }: { pool: Pool }) {
  return (
    <dl className="facts">
      <div>
        <dt>Answer now</dt>
        <dd data-testid="pool-answer">
          <PoolAnswer answer={pool.answer} />
        </dd>
      </div>
      <div>
        <dt>Type and TTL</dt>
        <dd>
          {pool.type}, {pool.ttl} s
        </dd>
      </div>
      <div>
        <dt>Policy</dt>
        <dd title={POLICY_WORDS[pool.policy].help}>{POLICY_WORDS[pool.policy].label}</dd>
      </div>
      <div>
        <dt>When none is up</dt>
        <dd>{FALLBACK_WORDS[pool.fallback].label}</dd>
      </div>
      <div>
        <dt>Check</dt>
        <dd className="small">{checkText(pool.check)}</dd>
      </div>
    </dl>
  );
}
