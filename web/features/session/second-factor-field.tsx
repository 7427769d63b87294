/** The second factor's code, as the sign-in form and the single sign-on's second step ask for it. */
import { TextField } from '../../ui/field';

export function SecondFactorField({ value, onChange, error }: { value: string; onChange: (code: string) => void; error: string | undefined }) {
  return (
    <TextField
      label="Authentication code"
      name="code"
      autoComplete="one-time-code"
      inputMode="text"
      autoFocus
      spellCheck={false}
      hint="6 digits from your app, or a recovery code (xxxxx-xxxxx)"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
    />
  );
}
