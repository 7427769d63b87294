/**
 * Weighted pools' answers: the zone holds every healthy member of a weighted pool (what secondaries
 * are sent and what a zone file shows), and each query is answered with one of them, picked in
 * proportion to its weight (as Route 53's and PowerDNS's weighted records answer). A member of
 * weight 0 is only there when no other is healthy, and is then picked evenly. The one-record sets
 * are made once per served set, so that a signed answer's signature is made once per member too.
 */
import { readPools } from '../../core/pools';
import type { DomainRow } from '../../store/types';
import { T, type RRset } from './rrset';

const TYPES: Record<string, number> = { A: T.A, AAAA: T.AAAA };

export class WeightedAnswers {
  /** Weight by address, by `"<fqdn> <type code>"`. */
  private readonly weights = new Map<string, Map<string, number>>();
  private readonly singles = new WeakMap<RRset, RRset[]>();

  constructor(zone: string, domain: Pick<DomainRow, 'pools'>) {
    for (const p of readPools(domain.pools)) {
      if (p.policy !== 'weighted') continue;
      const fqdn = p.name === '@' ? zone : `${p.name}.${zone}`;
      this.weights.set(`${fqdn} ${TYPES[p.type]}`, new Map(p.members.map((m) => [m.address, m.weight])));
    }
  }

  get size(): number {
    return this.weights.size;
  }

  /** The answer with each weighted pool's set cut to one member picked by weight; the same array when none is there. */
  pick(answer: RRset[]): RRset[] {
    let out = answer;
    for (let i = 0; i < answer.length; i++) {
      const set = answer[i]!;
      if (set.data.length < 2 || (set.type !== T.A && set.type !== T.AAAA)) continue;
      const weights = this.weights.get(`${set.name} ${set.type}`);
      if (!weights) continue;
      if (out === answer) out = answer.slice();
      out[i] = this.one(set, weights);
    }
    return out;
  }

  private one(set: RRset, weights: Map<string, number>): RRset {
    let singles = this.singles.get(set);
    if (!singles) {
      singles = set.data.map((d) => ({ ...set, data: [d] }));
      this.singles.set(set, singles);
    }
    const w = set.data.map((d) => weights.get(String(d)) ?? 1);
    let total = w.reduce((a, b) => a + b, 0);
    // Only weight-0 members left (the pool's fallback): an even pick.
    if (total === 0) {
      w.fill(1);
      total = w.length;
    }
    let r = Math.random() * total;
    for (let i = 0; i < w.length; i++) {
      r -= w[i]!;
      if (r < 0) return singles[i]!;
    }
    return singles[singles.length - 1]!;
  }
}
