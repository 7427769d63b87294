/** The CLI's help, from its one table of commands: what an operator who types --help reads. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDataDir } from '../testing/server-process';
import { COMMANDS, FLAGS, synopsis } from './commands';

describe('admin CLI help', () => {
  it('lists every command with its usage and every flag, without touching the database', async () => {
    const dir = path.join(tempDataDir(), 'data');
    // The CLI starts slowly (tsx): the runs go side by side.
    for (const res of await Promise.all([['--help'], ['help'], []].map((args) => runCli(dir, args)))) {
      expect(res.status).toBe(0);
      for (const c of COMMANDS) expect(res.stdout).toContain(`  ${synopsis(c)}`);
      for (const f of Object.keys(FLAGS)) expect(res.stdout).toContain(`--${f}`);
    }
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('explains the flags of one command, or of a group, with <command> --help and help <command>', async () => {
    const [a, b, tsigHelp] = await Promise.all(
      [
        ['zones', 'import', '--help'],
        ['help', 'zones', 'import'],
        ['tsig', '--help'],
      ].map((args) => runCli(tempDataDir(), args)),
    );
    for (const out of [stdout(a!), stdout(b!)]) {
      expect(out).toContain('zones import <username> <zone> <file|-> [--merge] [--dry-run]');
      expect(out).toMatch(/--dry-run\s+print the change without applying it/);
      expect(out).not.toContain('users add');
    }
    const tsig = stdout(tsigHelp!);
    expect(['tsig create', 'tsig list', 'tsig revoke'].every((c) => tsig.includes(`  ${c} `))).toBe(true);
    expect(tsig).toMatch(/--read-only\s+read, never write/);
  });

  it('fails on an unknown command or a flag of another command, pointing at --help', async () => {
    const [unknown, wrongFlag, unknownHelp] = await Promise.all([['frobnicate'], ['users', 'add', 'bob', '--merge'], ['nope', '--help']].map((args) => runCli(tempDataDir(), args)));
    expect(unknown!.status).toBe(2);
    expect(unknown!.stderr).toBe('error: unknown command "frobnicate"\nrun "npm run cli -- --help" for every command and flag\n');
    expect(wrongFlag!.status).toBe(2);
    expect(wrongFlag!.stderr).toContain('error: --merge is not a flag of users add\n\nusage: npm run cli -- users add <username> [--password <pw>] [--admin]\n');
    expect(unknownHelp!.stderr).toMatch(/unknown command "nope"/);
  });
});

function stdout(r: { status: number | null; stdout: string; stderr: string }): string {
  expect(r.stderr).toBe('');
  return r.stdout;
}
