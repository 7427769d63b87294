/** Writes of templates: create (from a zone), delete, apply to zones (preview first), and a zone created from one. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../lib/api-client';
import type { BatchResult, Template } from '../../lib/api-types';
import { bff } from '../../lib/paths';
import { templateKeys } from './keys';

export interface ApplyInput {
  zones: string[];
  mode: 'merge' | 'replace';
  variables: Record<string, string>;
  dryRun: boolean;
}

export function useCreateTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; from_zone: string; team?: string }) => request<Template>('POST', bff.templates, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: templateKeys.all }),
  });
}

export function useDeleteTemplate() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: (id: number) => request<Template>('DELETE', bff.template(id)), onSuccess: () => void qc.invalidateQueries({ queryKey: templateKeys.all }) });
}

export function useApplyTemplate(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ dryRun, ...body }: ApplyInput) => request<BatchResult>('POST', bff.templateApply(id), { body, query: { dry_run: dryRun ? 'true' : undefined } }),
    onSuccess: (_r, input) => {
      if (!input.dryRun) void qc.invalidateQueries();
    },
  });
}

export function useCreateZoneFromTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; template: number; variables: Record<string, string> }) => request<{ name: string }>('POST', bff.domains, { body }),
    onSuccess: () => void qc.invalidateQueries(),
  });
}

/** `key=value` lines as variables (blank lines skipped). */
export function parseVariableLines(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (line.trim() === '' || at < 0) continue;
    out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}
