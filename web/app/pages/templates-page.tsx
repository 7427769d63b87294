/**
 * Templates: the ones the user may use, and a new one made from a zone (its name becomes
 * `{zone}`). Each opens its page: its RRsets, its zones and their drift, apply to zones.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ApiError } from '../../lib/api-client';
import { usePageParam } from '../../lib/page-param';
import { usePageTitle } from '../../lib/page-title';
import { routes } from '../../lib/paths';
import { useTemplates } from '../../features/templates/list-templates';
import { useCreateTemplate } from '../../features/templates/template-mutations';
import { Alert } from '../../ui/alert';
import { TextField } from '../../ui/field';
import { Pagination } from '../../ui/pagination';
import { EmptyState, ErrorState, LoadingState } from '../../ui/states';
import { TableWrap } from '../../ui/table-wrap';
import { useToast } from '../../ui/toast';

function CreateFromZoneForm() {
  const [name, setName] = useState('');
  const [zone, setZone] = useState('');
  const create = useCreateTemplate();
  const navigate = useNavigate();
  const toast = useToast();
  const server = create.error instanceof ApiError ? create.error : null;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { name: name.trim(), from_zone: zone.trim() },
      {
        onSuccess: (t) => {
          toast('success', `Created template ${t.name}`);
          navigate(routes.template(t.id));
        },
      },
    );
  };
  return (
    <form className="inline-form" onSubmit={onSubmit} noValidate aria-label="Create a template from a zone">
      <TextField label="Template name" name="name" value={name} autoComplete="off" onChange={(e) => setName(e.target.value)} error={server?.field('name')} placeholder="mail" />
      <TextField
        label="From zone"
        name="from_zone"
        value={zone}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setZone(e.target.value)}
        error={server?.field('from_zone') ?? (server?.status === 404 ? server.message : undefined)}
        placeholder="example.com"
        hint="Its records, but the apex NS set; its name becomes {zone}."
      />
      <button type="submit" className="btn btn-primary" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create template'}
      </button>
      {server && Object.keys(server.fields).length === 0 && server.status !== 404 ? <Alert>{server.message}</Alert> : null}
    </form>
  );
}

export function Component() {
  usePageTitle('Templates');
  const { page, setPage } = usePageParam();
  const q = useTemplates(page);
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Templates</h1>
          <p className="muted">The same records in many zones: create a zone from a template, or apply one to zones you have, with a preview first.</p>
        </div>
      </header>
      <section className="card">
        <CreateFromZoneForm />
      </section>
      <section className="card" aria-label="Your templates">
        {q.isPending ? (
          <LoadingState label="Loading templates…" />
        ) : q.isError ? (
          <ErrorState error={q.error} retry={() => void q.refetch()} title="Could not load templates" />
        ) : q.data.total === 0 ? (
          <EmptyState title="No templates yet">Create one from a zone above, or with POST /api/v1/templates.</EmptyState>
        ) : (
          <>
            <TableWrap label="Templates">
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Owner</th>
                    <th scope="col">RRsets</th>
                    <th scope="col">Variables</th>
                  </tr>
                </thead>
                <tbody>
                  {q.data.items.map((t) => (
                    <tr key={t.id}>
                      <td>
                        <Link to={routes.template(t.id)}>{t.name}</Link>
                      </td>
                      <td>{t.team ? `team ${t.team}` : 'you'}</td>
                      <td>{t.rrsets.length}</td>
                      <td>{t.variables.join(', ') || '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
            <Pagination page={q.data.page} perPage={q.data.perPage} total={q.data.total} onPage={setPage} label="Template pages" />
          </>
        )}
      </section>
    </div>
  );
}
