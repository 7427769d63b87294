/** New team: a name; what the server refuses (taken, not a valid name) shows on the field. On success, the team's page opens to invite its members. */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../lib/api-client';
import { routes } from '../../lib/paths';
import { Alert } from '../../ui/alert';
import { TextField } from '../../ui/field';
import { useToast } from '../../ui/toast';
import { useCreateTeam } from './create-team';

export function CreateTeamForm() {
  const [name, setName] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateTeam();
  const navigate = useNavigate();
  const toast = useToast();
  const server = create.error instanceof ApiError ? create.error : null;
  const nameError = (submitted && name.trim() === '' ? 'is required' : undefined) ?? server?.field('name') ?? (server && Object.keys(server.fields).length === 0 ? server.message : undefined);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (name.trim() === '') return;
    create.mutate(name.trim(), {
      onSuccess: (t) => {
        toast('success', `Created team ${t.name}; you are its owner`);
        navigate(routes.team(t.name));
      },
    });
  };

  return (
    <form className="inline-form" onSubmit={onSubmit} noValidate aria-label="Create a team">
      <TextField
        label="New team"
        name="name"
        value={name}
        autoComplete="off"
        spellCheck={false}
        placeholder="web-ops"
        onChange={(e) => {
          setName(e.target.value);
          create.reset();
        }}
        error={nameError}
        hint="You become its owner and can then invite members and give zones to it."
        className="grow"
      />
      <button type="submit" className="btn btn-primary" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create team'}
      </button>
      {create.error && !server ? <Alert>{create.error.message}</Alert> : null}
    </form>
  );
}
