/**
 * One template: its RRsets; a zone created from it; apply it to zones (a preview per zone of the
 * RRsets it adds, replaces or removes, then one change set per zone under one batch, which can be
 * reverted as one); and the zones made from it, each marked when it has drifted from it.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { BatchResult } from '../../lib/api-types';
import { usePageTitle } from '../../lib/page-title';
import { routes } from '../../lib/paths';
import { useTemplate, useTemplateZones } from '../../features/templates/get-template';
import { parseVariableLines, useApplyTemplate, useCreateZoneFromTemplate, useDeleteTemplate } from '../../features/templates/template-mutations';
import { ApplyBatchButton, BatchOutcome, errorText } from '../../features/search/batch-steps';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { SelectField, TextField } from '../../ui/field';
import { ErrorState, LoadingState } from '../../ui/states';
import { TableWrap } from '../../ui/table-wrap';
import { useToast } from '../../ui/toast';

function VariablesField({ value, onChange, names }: { value: string; onChange: (v: string) => void; names: string[] }) {
  if (names.length === 0) return null;
  return (
    <label className="field">
      <span className="field-label">Variables (one name=value a line)</span>
      <textarea rows={Math.max(2, names.length)} value={value} onChange={(e) => onChange(e.target.value)} placeholder={names.map((n) => `${n}=…`).join('\n')} spellCheck={false} />
    </label>
  );
}

function CreateZoneForm({ id, names }: { id: number; names: string[] }) {
  const [name, setName] = useState('');
  const [vars, setVars] = useState('');
  const create = useCreateZoneFromTemplate();
  const navigate = useNavigate();
  const toast = useToast();
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { name: name.trim(), template: id, variables: parseVariableLines(vars) },
      {
        onSuccess: (d) => {
          toast('success', `Created ${d.name} from the template`);
          navigate(routes.domain(d.name));
        },
      },
    );
  };
  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-label="Create a zone from this template">
      <h2>Create a zone from it</h2>
      <TextField label="New zone" name="zone" value={name} autoComplete="off" spellCheck={false} onChange={(e) => setName(e.target.value)} placeholder="example.org" />
      <VariablesField value={vars} onChange={setVars} names={names} />
      <div>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create zone'}
        </button>
      </div>
      {create.error ? <Alert>{errorText(create.error)}</Alert> : null}
    </form>
  );
}

function ApplyForm({ id, names }: { id: number; names: string[] }) {
  const [zones, setZones] = useState('');
  const [vars, setVars] = useState('');
  const [mode, setMode] = useState<'merge' | 'replace'>('merge');
  const [preview, setPreview] = useState<BatchResult | null>(null);
  const [done, setDone] = useState<BatchResult | null>(null);
  const apply = useApplyTemplate(id);
  const toast = useToast();
  const input = (dryRun: boolean) => ({ zones: zones.split(/[\s,]+/).filter(Boolean), mode, variables: parseVariableLines(vars), dryRun });
  const reset = () => {
    setPreview(null);
    apply.reset();
  };
  return (
    <form
      className="stack"
      noValidate
      aria-label="Apply this template to zones"
      onSubmit={(e) => {
        e.preventDefault();
        setDone(null);
        apply.mutate(input(true), { onSuccess: setPreview });
      }}
    >
      <h2>Apply to zones</h2>
      <TextField
        label="Zones (separated by spaces or commas)"
        name="zones"
        value={zones}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => {
          setZones(e.target.value);
          reset();
        }}
        placeholder="example.com example.net"
      />
      <SelectField
        label="Mode"
        value={mode}
        onChange={(e) => {
          setMode(e.target.value as 'merge' | 'replace');
          reset();
        }}
      >
        <option value="merge">Merge: the template’s RRsets replace the zone’s at their names</option>
        <option value="replace">Replace: the zone holds exactly the template (but its NS set)</option>
      </SelectField>
      <VariablesField
        value={vars}
        onChange={(v) => {
          setVars(v);
          reset();
        }}
        names={names}
      />
      <div className="row">
        <button type="submit" className="btn" disabled={apply.isPending}>
          Preview
        </button>
        <ApplyBatchButton
          preview={preview}
          pending={apply.isPending}
          onApply={() =>
            apply.mutate(input(false), {
              onSuccess: (r) => {
                setPreview(null);
                setDone(r);
                toast('success', `Applied to ${r.zones.length} zones`);
              },
            })
          }
        />
      </div>
      <BatchOutcome error={apply.error} preview={preview} done={done} onReverted={() => setDone(null)} />
    </form>
  );
}

export function Component() {
  const id = Number(useParams().id);
  const q = useTemplate(id);
  const zones = useTemplateZones(id);
  const del = useDeleteTemplate();
  const navigate = useNavigate();
  usePageTitle(q.data?.name ?? 'Template', 'Templates');
  if (q.isPending) return <LoadingState label="Loading the template…" />;
  if (q.isError) return <ErrorState error={q.error} title="Could not load the template" />;
  const t = q.data;
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <p className="muted">
            <Link to={routes.templates}>Templates</Link>
          </p>
          <h1>{t.name}</h1>
          <p className="muted">{t.description || (t.team ? `Owned by team ${t.team}` : 'Yours')}</p>
        </div>
        <button type="button" className="btn btn-danger" disabled={del.isPending} onClick={() => del.mutate(t.id, { onSuccess: () => navigate(routes.templates) })}>
          Delete template
        </button>
      </header>
      <section className="card" aria-label="Records of the template">
        <TableWrap label="RRsets">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">TTL</th>
                <th scope="col">Records</th>
              </tr>
            </thead>
            <tbody>
              {t.rrsets.map((r) => (
                <tr key={`${r.name} ${r.record_type}`}>
                  <td>{r.name}</td>
                  <td>{r.record_type}</td>
                  <td>{r.ttl}</td>
                  <td>{r.records.join(' · ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </section>
      <section className="card">
        <CreateZoneForm id={t.id} names={t.variables} />
      </section>
      <section className="card">
        <ApplyForm id={t.id} names={t.variables} />
      </section>
      <section className="card" aria-label="Zones from this template">
        <h2>Zones</h2>
        {zones.isPending ? (
          <LoadingState />
        ) : zones.isError ? (
          <ErrorState error={zones.error} />
        ) : zones.data.length === 0 ? (
          <p className="muted">No zone has been made from it or had it applied yet.</p>
        ) : (
          <ul className="plain-list">
            {zones.data.map((z) => (
              <li key={z.zone}>
                <Link to={routes.domain(z.zone)}>{z.zone}</Link>{' '}
                {z.drifted === null ? (
                  <Badge title={z.problem}>not compared</Badge>
                ) : z.drifted ? (
                  <Badge tone="warning" title={z.problem ?? z.differences.map((d) => `${d.name} ${d.record_type}: ${d.actual.join(', ') || 'missing'} instead of ${d.expected.join(', ')}`).join('; ')}>
                    drifted
                  </Badge>
                ) : (
                  <Badge tone="success">as the template</Badge>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
