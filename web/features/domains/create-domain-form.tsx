/**
 * New zone: the name is checked as you type with the server's own rules (core's
 * normalizeZoneName), and what the server still rejects (taken, overlapping) shows on the field.
 * A user who is an owner or admin of a team chooses the zone's owner: themselves or that team.
 * The zone is a primary (records written here) or a secondary (copied from its primaries by zone
 * transfer, secondary-fields.tsx).
 */
import { useMemo, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { normalizeZoneName } from '../../../server/core/domain-name';
import { ApiError } from '../../lib/api-client';
import { outageOf } from '../../lib/outage';
import { routes } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { SelectField, TextField } from '../../ui/field';
import { useToast } from '../../ui/toast';
import { ownerChoices } from '../../lib/role-words';
import { useEveryTeam } from '../../lib/list-teams';
import { useCreateDomain } from './create-domain';
import { SecondaryFields, splitPrimaries, type SecondaryDraft } from './secondary-fields';

function check(name: string): { normalized?: string; error?: string } {
  if (name.trim() === '') return {};
  try {
    return { normalized: normalizeZoneName(name) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

export function CreateDomainForm() {
  const [name, setName] = useState('');
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [owner, setOwner] = useState('');
  const [kind, setKind] = useState<'primary' | 'secondary'>('primary');
  const [secondary, setSecondary] = useState<SecondaryDraft>({ primaries: '', tsigKey: '' });
  const teams = useEveryTeam();
  // A user in no team (or whose teams cannot be listed) sees the form as before.
  const choices = useMemo(() => ownerChoices(teams.data ?? []), [teams.data]);
  const create = useCreateDomain();
  const navigate = useNavigate();
  const toast = useToast();
  const local = useMemo(() => check(name), [name]);
  const refused = create.error instanceof ApiError && submitted === name ? create.error : null;
  // The database away or the disk full is nothing wrong with the name: said above the button, the fields left as typed.
  const unsaved = refused && outageOf(refused) ? refused : null;
  const serverError = unsaved ? null : refused;
  const error = local.error ?? serverError?.field('name') ?? (serverError && Object.keys(serverError.fields).length === 0 ? serverError.message : undefined);
  const emptyError = submitted === name && name.trim() === '' ? 'is required' : undefined;
  const primaries = splitPrimaries(secondary.primaries);
  const noPrimaries = kind === 'secondary' && submitted !== null && primaries.length === 0 ? 'name at least one primary' : undefined;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(name);
    if (local.error || !local.normalized) return;
    if (kind === 'secondary' && primaries.length === 0) return;
    const tsigKey = secondary.tsigKey.trim();
    create.mutate(
      {
        name: local.normalized,
        ...(owner && choices.includes(owner) ? { team: owner } : {}),
        ...(kind === 'secondary' ? { kind, primaries, ...(tsigKey ? { tsig_key: tsigKey } : {}) } : {}),
      },
      {
        onSuccess: (d) => {
          toast('success', d.team ? `Created ${d.name} for team ${d.team}` : `Created ${d.name}`);
          navigate(routes.domain(d.name));
        },
      },
    );
  };

  const hint =
    local.normalized && local.normalized !== name.trim().toLowerCase().replace(/\.$/, '')
      ? `Will be created as ${local.normalized}`
      : 'A zone you control, such as example.com. Internationalized names are converted to punycode.';

  return (
    <form className="inline-form" onSubmit={onSubmit} noValidate aria-label="Create a domain">
      <TextField
        label="New domain"
        name="name"
        value={name}
        autoComplete="off"
        spellCheck={false}
        placeholder="example.com"
        onChange={(e) => setName(e.target.value)}
        error={error ?? emptyError}
        hint={hint}
        className="grow"
      />
      {choices.length > 0 ? (
        <SelectField label="Owner" name="team" value={owner} onChange={(e) => setOwner(e.target.value)} error={serverError?.field('team')}>
          <option value="">Me</option>
          {choices.map((t) => (
            <option key={t} value={t}>
              Team {t}
            </option>
          ))}
        </SelectField>
      ) : null}
      <SelectField label="Kind" name="kind" value={kind} onChange={(e) => setKind(e.target.value === 'secondary' ? 'secondary' : 'primary')} error={serverError?.field('kind')}>
        <option value="primary">Primary (records written here)</option>
        <option value="secondary">Secondary (copied from a primary by zone transfer)</option>
      </SelectField>
      {kind === 'secondary' ? <SecondaryFields draft={secondary} onChange={setSecondary} serverError={serverError} missing={noPrimaries} /> : null}
      <button type="submit" className="btn btn-primary" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create domain'}
      </button>
      {create.error && !(create.error instanceof ApiError) ? <Alert>{String(create.error)}</Alert> : null}
      {unsaved ? <Alert title="Not saved">{unsaved.message}</Alert> : null}
    </form>
  );
}
