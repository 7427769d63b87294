/** Each page names itself in the tab and in the history list ("example.com · History · zonedeck"). */
import { useEffect } from 'react';

export function usePageTitle(...parts: string[]): void {
  const title = [...parts.filter(Boolean), 'zonedeck'].join(' · ');
  useEffect(() => {
    document.title = title;
  }, [title]);
}
