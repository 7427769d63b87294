/**
 * The change-password form's own checks, before anything is sent: every field filled in and the
 * new password typed twice alike. The server still judges the current password and the new one.
 */
export interface PasswordDraft {
  current: string;
  next: string;
  confirm: string;
}

export type PasswordProblems = Partial<Record<keyof PasswordDraft, string>>;

export function passwordProblems(d: PasswordDraft): PasswordProblems {
  const p: PasswordProblems = {};
  if (d.current === '') p.current = 'is required';
  if (d.next === '') p.next = 'is required';
  else if (d.next === d.current) p.next = 'must differ from the current password';
  if (d.next !== '' && d.confirm !== d.next) p.confirm = 'does not match the new password';
  return p;
}

export const hasProblems = (p: PasswordProblems) => Object.values(p).some(Boolean);
