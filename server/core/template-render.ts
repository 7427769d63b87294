/**
 * Template placeholders: `{zone}` is the zone's name, `{var}` a variable the
 * caller gives. Pure, so the dashboard can show which variables a template needs.
 */
import { RuleError } from './errors';

export const MAX_VARIABLES = 50;
export const MAX_VARIABLE_LENGTH = 255;
const VARIABLE_NAME = /^[a-z][a-z0-9_]{0,31}$/;
const PLACEHOLDER = /\{([a-z][a-z0-9_]{0,31})\}/g;

/** The variables a text uses (not `zone`, which every zone gives). */
export function placeholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((n) => n !== 'zone');
}

/** Why a variable's name or value is refused (null when fine). */
export function variableRefusal(name: string, value: unknown): string | null {
  if (!VARIABLE_NAME.test(name)) return 'a variable name is a lower-case letter, then up to 31 letters, digits or underscores';
  if (name === 'zone') return '{zone} is always the zone’s name and cannot be set';
  if (typeof value !== 'string') return 'must be a string';
  if (value.length > MAX_VARIABLE_LENGTH) return `must be at most ${MAX_VARIABLE_LENGTH} characters`;
  if (/[{}\n\r]/.test(value)) return 'must not contain braces or line breaks';
  return null;
}

/** `text` with its placeholders filled; RuleError naming the first variable not given. */
export function fill(text: string, zone: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    if (name === 'zone') return zone;
    const v = variables[name];
    if (v === undefined) throw new RuleError(`uses {${name}}, which the variables do not give`);
    return v;
  });
}

/** A zone's records as template text: the zone's name (as a whole name or the tail of one) becomes `{zone}`. */
export function unfill(text: string, zone: string): string {
  const escaped = zone.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  return text.replace(new RegExp(`(^|[\\s."@=:])${escaped}(?=\\.?(?:$|[\\s";]))`, 'gi'), (_m, before: string) => `${before}{zone}`);
}
