/**
 * The zone's DNSSEC policy: algorithm, one key or two, how long keys live, and how missing names
 * are denied. A new algorithm or key setup on a signed zone cannot be swapped in at once (answers
 * cached under the old keys must keep validating), so saving one first says that it starts an
 * algorithm rollover and roughly how long that takes; after saving, the server's own words for the
 * step it began are shown.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { MAX_LIFETIME_DAYS, MIN_LIFETIME_DAYS } from '../../../server/core/dnssec-policy';
import { ApiError } from '../../lib/api-client';
import type { DnssecPolicy, DnssecView } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { SelectField, TextField } from '../../ui/field';
import { useToast } from '../../ui/toast';
import { ChoiceGroup } from './choice-group';
import { ALGORITHMS, DENIALS, KEY_SETUPS } from './policy-words';
import { rolloverPending } from './policy-keys';
import { NextStep } from './rollover-timeline';
import { useSavePolicy } from './save-policy';

interface Values {
  algorithm: DnssecPolicy['algorithm'];
  keys: DnssecPolicy['keys'];
  zsk: string;
  kskNever: boolean;
  ksk: string;
  denial: DnssecPolicy['denial'];
}

const fromPolicy = (p: DnssecPolicy): Values => ({
  algorithm: p.algorithm,
  keys: p.keys,
  zsk: String(p.zsk_lifetime_days),
  kskNever: p.ksk_lifetime_days === null,
  ksk: String(p.ksk_lifetime_days ?? 365),
  denial: p.denial,
});

function daysError(v: string): string | undefined {
  const n = Number(v.trim());
  if (!/^[0-9]{1,4}$/.test(v.trim()) || n < MIN_LIFETIME_DAYS || n > MAX_LIFETIME_DAYS) return `Must be a whole number of days from ${MIN_LIFETIME_DAYS} to ${MAX_LIFETIME_DAYS}`;
  return undefined;
}

/** Only what the user changed, as the API takes it. */
function patchOf(v: Values, p: DnssecPolicy): Partial<DnssecPolicy> {
  const patch: Partial<DnssecPolicy> = {};
  if (v.algorithm !== p.algorithm) patch.algorithm = v.algorithm;
  if (v.keys !== p.keys) patch.keys = v.keys;
  if (v.keys === 'ksk-zsk' && Number(v.zsk) !== p.zsk_lifetime_days) patch.zsk_lifetime_days = Number(v.zsk);
  const ksk = v.kskNever ? null : Number(v.ksk);
  if (ksk !== p.ksk_lifetime_days) patch.ksk_lifetime_days = ksk;
  if (v.denial !== p.denial) patch.denial = v.denial;
  return patch;
}

export function PolicyForm({ name, view }: { name: string; view: DnssecView }) {
  const saved = view.policy;
  const [values, setValues] = useState<Values>(() => fromPolicy(saved));
  const [confirming, setConfirming] = useState(false);
  // Set once a save has started an algorithm rollover: the form then follows it in the server's words.
  const [rolled, setRolled] = useState(false);
  const save = useSavePolicy(name);
  const toast = useToast();
  const set = <K extends keyof Values>(k: K, v: Values[K]) => setValues((old) => ({ ...old, [k]: v }));

  // The policy saved elsewhere (another tab, the API) shows here unless the user is editing.
  const savedText = JSON.stringify(saved);
  const [lastSaved, setLastSaved] = useState(savedText);
  useEffect(() => {
    if (savedText === lastSaved) return;
    setValues((v) => (Object.keys(patchOf(v, JSON.parse(lastSaved) as DnssecPolicy)).length === 0 ? fromPolicy(saved) : v));
    setLastSaved(savedText);
  }, [savedText, lastSaved, saved]);

  const local = { zsk: values.keys === 'ksk-zsk' ? daysError(values.zsk) : undefined, ksk: values.kskNever ? undefined : daysError(values.ksk) };
  const patch = useMemo(() => (local.zsk || local.ksk ? null : patchOf(values, saved)), [values, saved, local.zsk, local.ksk]);
  const dirty = JSON.stringify(values) !== JSON.stringify(fromPolicy(saved));
  const rolls = view.dnssec_enabled && (values.algorithm !== saved.algorithm || values.keys !== saved.keys);
  const server = save.error instanceof ApiError ? save.error : null;
  const fieldError = (f: keyof DnssecPolicy) => server?.field(`dnssec_policy.${f}`);

  const send = () => {
    if (!patch) return;
    setConfirming(false);
    setRolled(false);
    save.mutate(patch, {
      onSuccess: () => {
        setRolled(rolls);
        toast('success', rolls ? 'DNSSEC policy saved: the rollover to the new keys begins' : 'DNSSEC policy saved');
      },
    });
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!patch || Object.keys(patch).length === 0) return;
    if (rolls) setConfirming(true);
    else send();
  };
  const algorithm = ALGORITHMS.find((a) => a.value === values.algorithm);

  return (
    <>
      <form onSubmit={onSubmit} noValidate aria-labelledby="dnssec-policy-title" className="dnssec-policy">
        <h3 id="dnssec-policy-title">Policy</h3>
        <p className="muted small">What the zone’s keys are and when they are replaced. The server rolls keys by itself on this schedule and never lets a rollover break validation.</p>
        <SelectField
          label="Algorithm"
          name="algorithm"
          value={values.algorithm}
          onChange={(e) => set('algorithm', e.target.value as Values['algorithm'])}
          hint={algorithm?.help}
          error={fieldError('algorithm')}
        >
          {ALGORITHMS.map((a) => (
            <option key={a.value} value={a.value}>
              {a.label}
            </option>
          ))}
        </SelectField>
        <ChoiceGroup legend="Keys" name="dnssec-keys" choices={KEY_SETUPS} value={values.keys} onChange={(v) => set('keys', v)} error={fieldError('keys')} />
        {rolls ? (
          <Alert tone="warning" title="Saving starts an algorithm rollover">
            New keys are made and sign beside the current ones before they replace them, so resolvers never see a gap. It takes a few times the zone’s longest TTL plus the propagation delay, and then
            as long as the parent takes to publish the new DS (automatic when the parent reads CDS, or days if you change it at your registrar by hand).
          </Alert>
        ) : null}
        {values.keys === 'ksk-zsk' ? (
          <TextField
            label="ZSK lifetime (days)"
            name="zsk_lifetime_days"
            inputMode="numeric"
            value={values.zsk}
            onChange={(e) => set('zsk', e.target.value)}
            error={local.zsk ?? fieldError('zsk_lifetime_days')}
            hint="After this many days a new zone-signing key takes over; the parent is not involved. 90 is usual."
          />
        ) : null}
        <ChoiceGroup
          legend={values.keys === 'csk' ? 'Roll the CSK' : 'Roll the KSK'}
          name="dnssec-ksk-rolls"
          choices={[
            { value: 'never', label: 'Only when I ask', help: 'Its rollover needs the parent’s DS to change, so it does not happen on its own.' },
            { value: 'every', label: 'On a schedule', help: 'Rolled after the lifetime below; the parent must follow through CDS or your registrar.' },
          ]}
          value={values.kskNever ? 'never' : 'every'}
          onChange={(v) => set('kskNever', v === 'never')}
        />
        {values.kskNever ? null : (
          <TextField
            label={`${values.keys === 'csk' ? 'CSK' : 'KSK'} lifetime (days)`}
            name="ksk_lifetime_days"
            inputMode="numeric"
            value={values.ksk}
            onChange={(e) => set('ksk', e.target.value)}
            error={local.ksk ?? fieldError('ksk_lifetime_days')}
          />
        )}
        <ChoiceGroup legend="Denial of existence" name="dnssec-denial" choices={DENIALS} value={values.denial} onChange={(v) => set('denial', v)} error={fieldError('denial')} />
        {server && Object.keys(server.fields).length === 0 ? <Alert title="Could not save the policy">{server.message}</Alert> : null}
        {rolled && (view.rollover || rolloverPending(view)) ? (
          <Alert tone="info" title="Algorithm rollover to the new keys">
            {view.rollover ? (
              <>
                {view.rollover.description} <NextStep rollover={view.rollover} />
              </>
            ) : (
              'It starts in a moment; the keys below follow each step.'
            )}
          </Alert>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={!dirty || save.isPending}>
            {save.isPending ? 'Saving…' : 'Save policy'}
          </button>
          <button type="button" className="btn" disabled={!dirty || save.isPending} onClick={() => setValues(fromPolicy(saved))}>
            Discard changes
          </button>
        </div>
      </form>
      <ConfirmDialog open={confirming} title="Start an algorithm rollover?" tone="primary" onCancel={() => setConfirming(false)} onConfirm={send} confirmLabel="Save and start the rollover">
        <p>
          {name} is signed. Its new keys ({algorithm?.label}, {KEY_SETUPS.find((k) => k.value === values.keys)?.label}) first sign beside the current ones, then are published, then the parent is asked
          for their DS; the current keys go only once the parent serves it.
        </p>
        <p>This takes hours at least, and as long as the parent needs to publish the new DS. The keys section shows each step as it happens.</p>
      </ConfirmDialog>
    </>
  );
}
