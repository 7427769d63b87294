/**
 * "Start a rollover now", after a confirmation that says what happens. A KSK+ZSK zone chooses which
 * key: the ZSK rolls without the parent, the KSK needs the parent's new DS.
 */
import { useState } from 'react';
import type { DnssecPolicy } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useToast } from '../../ui/toast';
import { ChoiceGroup } from './choice-group';
import { useStartRollover, type RolloverChoice } from './start-rollover';

const KSK_ZSK_CHOICES: { value: RolloverChoice; label: string; help: string }[] = [
  { value: 'zsk', label: 'The ZSK', help: 'A new zone-signing key takes over; the parent is not involved.' },
  { value: 'ksk', label: 'The KSK', help: 'A new key-signing key; the parent must publish its DS before the old one goes.' },
];

export function StartRolloverButton({ name, policy, disabled }: { name: string; policy: DnssecPolicy; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<RolloverChoice>('zsk');
  const start = useStartRollover(name);
  const toast = useToast();
  const twoKeys = policy.keys === 'ksk-zsk';
  const confirm = () =>
    start.mutate(twoKeys ? kind : undefined, {
      onSuccess: () => {
        setOpen(false);
        toast('success', 'The rollover has started');
      },
    });
  return (
    <>
      <button
        type="button"
        className="btn"
        disabled={disabled}
        onClick={() => {
          start.reset();
          setOpen(true);
        }}
      >
        Start a rollover now
      </button>
      <ConfirmDialog
        open={open}
        title={`Start a key rollover for ${name}?`}
        tone="primary"
        onCancel={() => setOpen(false)}
        onConfirm={confirm}
        confirmLabel="Start the rollover"
        pendingLabel="Starting…"
        pending={start.isPending}
        error={start.error ? <Alert title="Could not start the rollover">{start.error.message}</Alert> : null}
      >
        {twoKeys ? <ChoiceGroup legend="Which key" name="rollover-kind" choices={KSK_ZSK_CHOICES} value={kind} onChange={setKind} /> : null}
        <p>
          A new key is published beside the current one and takes over step by step; each step waits until resolvers’ caches have caught up.
          {!twoKeys || kind === 'ksk' ? ' The old key goes only after the parent zone serves the new DS: give it to your registrar when the timeline asks, unless the parent reads CDS.' : ''}
        </p>
      </ConfirmDialog>
    </>
  );
}
