/**
 * The note at the top of every signed-in page while the service is read-only for a moment: the
 * database does not answer, or the disk under it is full. It asks by itself whether the service
 * answers again (recovery-poll.ts) and goes when it does; forms keep what the user typed meanwhile.
 * The live region is always in the page, empty when all is well, so that screen readers announce
 * the note when it appears (a region inserted with its text is often not read).
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { outageWatch, type OutageKind } from '../lib/outage';
import { answersAgain, pollUntilRecovered, type RecoveryPoll } from '../lib/recovery-poll';
import '../ui/alert.css';
import './outage-banner.css';

const WORDS: Record<OutageKind, { title: string; text: string }> = {
  store_unavailable: {
    title: 'Read-only for a moment',
    text: 'The database does not answer, so changes are not saved. What you typed stays in its form: save it again once this note goes. DNS answers as usual; this page checks by itself.',
  },
  insufficient_storage: {
    title: 'Saving is paused',
    text: "The server's disk is full, so changes are not saved. What you typed stays in its form: save it again once there is space. Viewing and DNS go on as usual.",
  },
};

export function OutageBanner() {
  const outage = useSyncExternalStore(outageWatch.subscribe, outageWatch.get);
  const poll = useRef<RecoveryPoll | null>(null);
  useEffect(() => {
    if (!outage) return;
    const p = pollUntilRecovered(outage, () => answersAgain(outage.kind), outageWatch.over);
    poll.current = p;
    return () => {
      p.stop();
      poll.current = null;
    };
  }, [outage]);
  const words = outage ? WORDS[outage.kind] : null;
  return (
    <div className={words ? 'outage-banner alert alert-warning' : 'outage-banner-idle'} data-kind={outage?.kind}>
      <div role="status" className="outage-text">
        {words ? (
          <>
            <strong>{words.title}.</strong> {words.text}
          </>
        ) : null}
      </div>
      {words ? (
        <button type="button" className="btn btn-small" onClick={() => poll.current?.now()}>
          Check now
        </button>
      ) : null}
    </div>
  );
}
