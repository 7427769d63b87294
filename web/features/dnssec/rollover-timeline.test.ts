import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Rollover } from '../../lib/api-types';
import { RolloverTimeline } from './rollover-timeline';

const text = (r: Rollover) =>
  renderToStaticMarkup(createElement(RolloverTimeline, { rollover: r }))
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

const base: Rollover = {
  kind: 'csk',
  step: 'submit',
  description: 'CDS and CDNSKEY ask the parent for the DS of CSK 2.',
  started_at: '2026-11-28T10:00:00Z',
  step_since: '2026-11-28T12:00:00Z',
  next_step_at: null,
  waiting_for: 'parent',
  parent_ds: ['example.com. 3600 IN DS 1 13 2 AAAA'],
  parent_checked_at: '2026-11-28T12:05:00Z',
};

describe('the rollover timeline', () => {
  it('waiting on the parent, says so and shows the DS set the parent served when last asked', () => {
    const t = text(base);
    expect(t).toContain('Done: The new key is published and signs beside the old');
    expect(t).toContain('Now: The parent is asked for the new DS');
    expect(t).toContain('Next: The old key is removed');
    expect(t).toContain('Waiting for the parent zone to publish the new DS.');
    expect(t).toContain('The parent’s DS set as last seen');
    expect(t).toContain('example.com. 3600 IN DS 1 13 2 AAAA');
    expect(t).not.toContain('Next step not before');
  });

  it('says when a parent has answered nothing usable yet', () => {
    expect(text({ ...base, parent_ds: null })).toContain('The parent has given no usable answer yet');
  });

  it('waiting on time, names the earliest moment of the next step and no parent', () => {
    const t = text({ ...base, step: 'publish', waiting_for: 'time', next_step_at: '2026-11-28T14:00:00Z', parent_ds: null, parent_checked_at: null });
    expect(t).toContain('Next step not before');
    expect(t).not.toContain('parent zone to publish');
  });
});
