/**
 * A new webhook, or changes to one: the URL, the events as boxes to tick, the zones it is limited to,
 * the team whose zones it follows (on creation only), a description and, when changing, whether it
 * is active. What the server refuses shows on its field (`url`, `events`, `zones.1`).
 */
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api-client';
import type { Webhook, WebhookCreated } from '../../lib/api-types';
import { useEveryTeam } from '../../lib/list-teams';
import { Alert } from '../../ui/alert';
import { SelectField, TextField } from '../../ui/field';
import { createBody, draftOfWebhook, NEW_WEBHOOK, updateBody, webhookErrors, zonesError, zonesOf } from './webhook-draft';
import { useCreateWebhook, useUpdateWebhook } from './webhook-mutations';
import { EVENTS } from './webhook-words';
import './webhooks.css';

interface Props {
  /** The webhook to change; none for a new one. */
  webhook?: Webhook;
  onCreated?(created: WebhookCreated): void;
  onSaved?(): void;
  onCancel?(): void;
}

const KNOWN = /^(url|events(\.\d+|\[\d+\])?|zones(\.\d+|\[\d+\])?|team|description|active)$/;

export function WebhookForm({ webhook, onCreated, onSaved, onCancel }: Props) {
  const [draft, setDraft] = useState(() => (webhook ? draftOfWebhook(webhook) : NEW_WEBHOOK));
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateWebhook();
  const update = useUpdateWebhook(webhook?.id ?? 0);
  const save = webhook ? update : create;
  const teams = useEveryTeam(!webhook);
  const errors = webhookErrors(draft);
  const fields = save.error instanceof ApiError ? save.error.fields : {};
  const error = (f: string) => (submitted ? errors[f] : undefined) ?? fields[f];
  const eventsError = error('events') ?? Object.entries(fields).find(([k]) => k.startsWith('events'))?.[1];
  const unknown = Object.entries(fields).filter(([k]) => !KNOWN.test(k));
  const set = (part: Partial<typeof draft>) => {
    setDraft({ ...draft, ...part });
  };
  const toggle = (event: string, on: boolean) => set({ events: on ? [...draft.events, event] : draft.events.filter((e) => e !== event) });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    if (webhook) update.mutate(updateBody(draft), { onSuccess: () => onSaved?.() });
    else
      create.mutate(createBody(draft), {
        onSuccess: (created) => {
          setDraft(NEW_WEBHOOK);
          setSubmitted(false);
          onCreated?.(created);
        },
      });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={webhook ? 'Change the webhook' : 'Create a webhook'} className="webhook-form">
      <TextField
        label="URL"
        type="url"
        value={draft.url}
        onChange={(e) => set({ url: e.target.value })}
        placeholder="https://hooks.example.com/zonedeck"
        autoComplete="off"
        spellCheck={false}
        hint="zonedeck POSTs each event here as JSON, signed with the webhook's secret (X-Zonedeck-Signature)."
        error={error('url')}
      />
      <fieldset className="webhook-events" aria-describedby={eventsError ? 'webhook-events-error' : undefined}>
        <legend>Events</legend>
        {EVENTS.map(({ event, help }) => (
          <label key={event} className="webhook-event">
            <input type="checkbox" checked={draft.events.includes(event)} onChange={(e) => toggle(event, e.target.checked)} />
            <span>
              <span className="mono strong">{event}</span>
              <span className="muted small webhook-event-help">{help}</span>
            </span>
          </label>
        ))}
        {eventsError ? (
          <p className="field-error" id="webhook-events-error">
            {eventsError.charAt(0).toUpperCase() + eventsError.slice(1)}
          </p>
        ) : null}
      </fieldset>
      <div className="inline-form">
        <TextField
          label="Zones"
          value={draft.zones}
          onChange={(e) => set({ zones: e.target.value })}
          placeholder="every zone you can read"
          autoComplete="off"
          spellCheck={false}
          className="grow"
          hint="Only events of these zones, comma-separated. Empty: all of them."
          error={zonesError(fields, zonesOf(draft.zones))}
        />
        {webhook ? (
          webhook.team ? (
            <p className="webhook-team muted small">Team {webhook.team}</p>
          ) : null
        ) : (
          <SelectField label="Team" value={draft.team} onChange={(e) => set({ team: e.target.value })} error={error('team')} hint="The team's zones, as its members see them.">
            <option value="">None (my own zones)</option>
            {(teams.data ?? []).map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
              </option>
            ))}
          </SelectField>
        )}
      </div>
      <TextField label="Description" value={draft.description} onChange={(e) => set({ description: e.target.value })} placeholder="optional" autoComplete="off" error={error('description')} />
      {webhook ? (
        <label className="check">
          <input type="checkbox" checked={draft.active} onChange={(e) => set({ active: e.target.checked })} /> Active (an inactive webhook gets no deliveries)
        </label>
      ) : null}
      {save.error && (!(save.error instanceof ApiError) || Object.keys(fields).length === 0 || unknown.length > 0) ? (
        <Alert title={webhook ? 'Could not save the webhook' : 'Could not create the webhook'}>{unknown.length > 0 ? unknown.map(([k, v]) => `${k} ${v}`).join('; ') : save.error.message}</Alert>
      ) : null}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : webhook ? 'Save webhook' : 'Create webhook'}
        </button>
        {onCancel ? (
          <button type="button" className="btn" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
