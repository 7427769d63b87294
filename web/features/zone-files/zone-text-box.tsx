/**
 * The text box a zone file is pasted into: monospaced, unwrapped (a line on screen is a line
 * of the file), with a gutter of line numbers that marks the lines the server refused.
 * `goToLine` selects a line and scrolls it into view, for "line 6: …" messages.
 */
import { useImperativeHandle, useMemo, useRef, type Ref, type TextareaHTMLAttributes } from 'react';
import { gutterRuns, lineCount, lineRange } from './zone-file-text';
import './zone-files.css';

export interface ZoneTextBoxHandle {
  goToLine(line: number): void;
}

type Props = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'> & {
  value: string;
  onChange: (text: string) => void;
  errorLines: ReadonlySet<number>;
  ref?: Ref<ZoneTextBoxHandle>;
};

export function ZoneTextBox({ value, onChange, errorLines, ref, ...textarea }: Props) {
  const area = useRef<HTMLTextAreaElement>(null);
  const gutter = useRef<HTMLDivElement>(null);
  // Typing within a line keeps the count, and so the gutter, as it was.
  const count = useMemo(() => lineCount(value), [value]);
  const runs = useMemo(() => gutterRuns(count, errorLines), [count, errorLines]);

  useImperativeHandle(
    ref,
    () => ({
      goToLine(line: number) {
        const el = area.current;
        if (!el) return;
        const { start, end } = lineRange(el.value, line);
        el.focus();
        el.setSelectionRange(start, end);
        // Lines do not wrap, so line n starts n - 1 line heights down; show it a third of the way in.
        const height = parseFloat(getComputedStyle(el).lineHeight) || 20;
        el.scrollTop = Math.max(0, (line - 1) * height - el.clientHeight / 3);
        el.scrollLeft = 0;
        el.scrollIntoView({ block: 'nearest' });
      },
    }),
    [],
  );

  return (
    <div className="zone-text">
      <div className="zone-gutter" ref={gutter} aria-hidden="true">
        {runs.map((r, i) =>
          r.marked ? (
            <mark key={i} className="zone-gutter-error">
              {r.text}
            </mark>
          ) : (
            <span key={i}>{r.text}</span>
          ),
        )}
      </div>
      <textarea
        {...textarea}
        ref={area}
        value={value}
        wrap="off"
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        onChange={(e) => onChange(e.target.value)}
        onScroll={(e) => {
          if (gutter.current) gutter.current.scrollTop = e.currentTarget.scrollTop;
        }}
      />
    </div>
  );
}
