/**
 * What a secondary zone is created with: its primaries and, optionally, the TSIG key its transfers
 * are signed with, which must be one of the creating user's keys. A secondary takes its content,
 * SOA and signatures from its primary, so a zone file, a template or DNSSEC at creation is refused.
 */
import { parsePrimaries } from '../../core/primaries';
import { Invalid } from '../../core/errors';
import { normalizeTsigKeyName } from '../../core/tsig-rules';
import type { ReadRepos, TsigKeyRow } from '../../store/types';
import type { FieldCheck } from '../changes/rule-fields';
import type { ZoneSettings } from './zone-rules';

/** As the API and the CLI send it. */
export interface SecondarySource {
  primaries: readonly string[];
  tsig_key?: string | null;
  /** The catalog (RFC 9432) the zone is made from as a member; absent for one made by hand. */
  catalog_id?: number;
}

/** The source checked field by field (each error under its field); undefined when one failed. */
export function secondaryFields(
  check: FieldCheck,
  source: SecondarySource,
  settings: ZoneSettings,
  withContent: boolean,
): { primaries: string[]; tsig_key: string | null; catalog_id: number | null } | undefined {
  const primaries = check.run('primaries', () => parsePrimaries(source.primaries));
  const key = source.tsig_key == null ? null : check.run('tsig_key', () => normalizeTsigKeyName(source.tsig_key!));
  if (settings.dnssec_enabled) check.fail('dnssec_enabled', 'a secondary zone is served as its primary signs it (or not): zonedeck does not sign it');
  if (withContent) check.fail('kind', 'a secondary zone takes its records from its primaries: no zone file or template');
  return primaries && key !== undefined ? { primaries, tsig_key: key, catalog_id: source.catalog_id ?? null } : undefined;
}

/** The key, when `userId` holds it; 400 naming `tsig_key` otherwise (saying nothing of another user's key). */
export async function heldKey(tx: Pick<ReadRepos, 'tsigKeys'>, userId: number, name: string): Promise<TsigKeyRow> {
  const key = await tx.tsigKeys.byName(name);
  if (!key || key.user_id !== userId) throw Invalid.field('tsig_key', `you hold no TSIG key named ${name}: create it under TSIG keys first`);
  return key;
}
