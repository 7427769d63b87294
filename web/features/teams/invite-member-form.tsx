/**
 * Invite a user into the team by username, with a role (editor by default: records only). The
 * invitation waits under Pending invitations until the user accepts it; the answer is the same
 * whether or not the name is a user's, so the form cannot say which.
 */
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api-client';
import type { TeamRole } from '../../lib/api-types';
import { Alert } from '../../ui/alert';
import { SelectField, TextField } from '../../ui/field';
import { useToast } from '../../ui/toast';
import { useInviteMember } from './invite-member';
import { ROLES, roleLabel } from '../../lib/role-words';

export function InviteMemberForm({ team }: { team: string }) {
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<TeamRole>('editor');
  const [submitted, setSubmitted] = useState(false);
  const add = useInviteMember(team);
  const toast = useToast();
  const server = add.error instanceof ApiError ? add.error : null;
  const usernameError = (submitted && username.trim() === '' ? 'is required' : undefined) ?? server?.field('username');
  const roleError = server?.field('role');
  const otherError = add.error && !usernameError && !roleError ? add.error.message : undefined;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (username.trim() === '') return;
    add.mutate(
      { username: username.trim(), role },
      {
        onSuccess: (m) => {
          toast('success', `Invited ${m.username} to ${team} as ${m.role}: they join once they accept`);
          setUsername('');
          setSubmitted(false);
        },
      },
    );
  };

  return (
    <form className="inline-form" onSubmit={onSubmit} noValidate aria-label={`Invite a member into ${team}`}>
      <TextField
        label="Username"
        name="username"
        value={username}
        autoComplete="off"
        spellCheck={false}
        placeholder="alice"
        onChange={(e) => {
          setUsername(e.target.value);
          add.reset();
        }}
        error={usernameError}
        hint="Their zonedeck username. They join when they accept the invitation."
        className="grow"
      />
      <SelectField label="Role" name="role" value={role} onChange={(e) => setRole(e.target.value as TeamRole)} error={roleError}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {roleLabel(r)}
          </option>
        ))}
      </SelectField>
      <button type="submit" className="btn btn-primary" disabled={add.isPending}>
        {add.isPending ? 'Inviting…' : 'Invite'}
      </button>
      {otherError ? <Alert title="Could not invite">{otherError}</Alert> : null}
    </form>
  );
}
