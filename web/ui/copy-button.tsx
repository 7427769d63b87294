/**
 * Copies a text to the clipboard and says so. Where the clipboard is refused (no secure
 * context, no permission), it selects `fallbackInput` instead so the user can press Ctrl+C.
 */
import { useEffect, useState, type RefObject } from 'react';

export function CopyButton({ text, label = 'Copy', fallbackInput }: { text: string; label?: string; fallbackInput?: RefObject<HTMLInputElement | null> }) {
  const [state, setState] = useState<'idle' | 'copied' | 'manual'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const t = setTimeout(() => setState('idle'), 3000);
    return () => clearTimeout(t);
  }, [state]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      fallbackInput?.current?.select();
      setState('manual');
    }
  };

  return (
    <>
      <button type="button" className="btn" onClick={() => void copy()}>
        {state === 'copied' ? 'Copied' : label}
      </button>
      <span className="visually-hidden" role="status">
        {state === 'copied' ? 'Copied to the clipboard' : state === 'manual' ? 'Could not use the clipboard; the text is selected, press Ctrl+C to copy it' : ''}
      </span>
      {state === 'manual' ? <span className="muted small">Selected: press Ctrl+C to copy.</span> : null}
    </>
  );
}
