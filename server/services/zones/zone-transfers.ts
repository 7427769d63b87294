/**
 * A primary zone's own transfers as a change of its settings: the NOTIFY targets, the networks
 * that may transfer it and the TSIG key both are signed with. Judged on the zone the change set
 * locked: the key must be one its owner holds (the zone's user, or a member of its team, as a
 * key that transfers or updates the zone), or the field is refused without a word about the key.
 */
import { canonicalAllowTransfer, canonicalAlsoNotify } from '../../core/zone-transfers';
import { normalizeTsigKeyName } from '../../core/tsig-rules';
import { RuleError } from '../../core/errors';
import { allowsWholeZone } from '../../core/scope';
import type { DomainRow, ReadRepos } from '../../store/types';
import type { Settings } from '../changes/change-sets';
import type { FieldCheck } from '../changes/rule-fields';
import { roleOn } from './access';

/** What a change of a zone's transfers may set; absent fields stay as they are. */
export interface TransferSettingsInput {
  also_notify?: readonly string[];
  allow_transfer?: readonly string[];
  transfer_tsig_key?: string | null;
}

type TransferSettings = Pick<Settings, 'also_notify' | 'allow_transfer' | 'transfer_tsig_key'>;

/** The one answer for a key that is missing, another tenant's or of no use here: it tells nothing of which. */
const NOT_HELD = "is not the name of a TSIG key this zone's owner holds";

/** The key name if its owner reaches the zone (as for a transfer: the user, or any member of its team) and its scope admits the whole zone. */
async function heldKey(tx: ReadRepos, zone: DomainRow, text: string): Promise<string> {
  let name: string;
  try {
    name = normalizeTsigKeyName(text);
  } catch {
    throw new RuleError(NOT_HELD);
  }
  const key = await tx.tsigKeys.byName(name);
  if (!key || !(await roleOn(tx, key.user_id, zone)) || !allowsWholeZone(key.scope, zone.name)) throw new RuleError(NOT_HELD);
  return name;
}

/** The settings `patch` changes, each field judged (failures go to `check`, naming the field). */
export async function transferSettings(check: FieldCheck, tx: ReadRepos, zone: DomainRow, patch: TransferSettingsInput): Promise<Partial<TransferSettings>> {
  const out: Partial<TransferSettings> = {};
  if (patch.also_notify !== undefined) {
    const list = check.run('also_notify', () => canonicalAlsoNotify(patch.also_notify!));
    if (list) out.also_notify = JSON.stringify(list);
  }
  if (patch.allow_transfer !== undefined) {
    const list = check.run('allow_transfer', () => canonicalAllowTransfer(patch.allow_transfer!));
    if (list) out.allow_transfer = JSON.stringify(list);
  }
  if (patch.transfer_tsig_key === null) out.transfer_tsig_key = null;
  else if (patch.transfer_tsig_key !== undefined) {
    try {
      out.transfer_tsig_key = await heldKey(tx, zone, patch.transfer_tsig_key);
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
      check.fail('transfer_tsig_key', e.message);
    }
  }
  return out;
}
