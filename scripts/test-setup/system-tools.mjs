// The system programs the tests run, and the Debian packages that provide them. `npm test`
// installs the missing ones when it can (root with apt-get) and otherwise stops with the
// one command that does.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Directories searched besides PATH: daemons live in sbin, PostgreSQL's programs in its versioned bin. */
function searchDirs() {
  const pg = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : [];
  return [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/local/sbin', '/usr/sbin', '/sbin', ...pg];
}

function executable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The full path of a program, as `command -v` would find it (plus sbin and PostgreSQL's bin), or null. */
export function which(name) {
  for (const dir of searchDirs()) if (executable(join(dir, name))) return join(dir, name);
  return null;
}

/** Whether the Python that runs certbot can import `module` (pyenv or a venv on PATH may be another Python). */
function certbotPythonHas(module) {
  const certbot = which('certbot');
  const shebang = certbot ? readFileSync(certbot, 'utf8').split('\n', 1)[0] : '';
  const python = shebang.startsWith('#!') && !shebang.includes(' ') ? shebang.slice(2) : '/usr/bin/python3';
  return executable(python) && spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0;
}

const program = (name, pkg) => ({ name, pkg, found: () => which(name) !== null });

/** Every tool the test suite uses. PostgreSQL's programs only matter when no TEST_DATABASE_URL is given. */
export function requiredTools({ postgres }) {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  return [
    { name: `chromium (${chromium})`, pkg: 'chromium', found: () => executable(chromium) },
    program('dig', 'bind9-dnsutils'),
    program('delv', 'bind9-dnsutils'),
    program('named-checkzone', 'bind9-utils'),
    program('named', 'bind9'),
    program('kdig', 'knot-dnsutils'),
    program('knsupdate', 'knot-dnsutils'),
    program('knotd', 'knot'),
    program('nsd', 'nsd'),
    program('ldns-verify-zone', 'ldnsutils'),
    program('dnsperf', 'dnsperf'),
    program('taskset', 'util-linux'),
    program('openssl', 'openssl'),
    program('pebble', 'pebble'),
    program('certbot', 'certbot'),
    { name: 'certbot rfc2136 plugin', pkg: 'python3-certbot-dns-rfc2136', found: () => certbotPythonHas('certbot_dns_rfc2136') },
    program('lego', 'lego'),
    { name: 'lexicon (python module)', pkg: 'python3-lexicon', found: () => certbotPythonHas('lexicon') },
    program('lexicon', 'lexicon'),
    ...(postgres ? [program('initdb', 'postgresql'), program('pg_ctl', 'postgresql')] : []),
  ];
}

const unique = (xs) => [...new Set(xs)];

/**
 * Makes sure every tool is there: installs the missing packages when root with apt-get,
 * otherwise prints the one command to run and exits 1.
 */
export function ensureSystemTools(tools) {
  const missing = tools.filter((t) => !t.found());
  if (missing.length === 0) return;
  const pkgs = unique(missing.map((t) => t.pkg));
  const names = missing.map((t) => t.name).join(', ');
  const apt = which('apt-get');
  const root = process.getuid?.() === 0;
  if (!root || !apt) {
    console.error(`npm test: missing ${names}.`);
    console.error(apt ? `Install them with:\n  sudo apt-get install -y --no-install-recommends ${pkgs.join(' ')}` : `Install these Debian packages (or your system's equivalents): ${pkgs.join(' ')}`);
    process.exit(1);
  }
  console.log(`npm test: installing ${pkgs.join(' ')} (missing: ${names})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...pkgs],
  ]) {
    const r = spawnSync(apt, args, { env, stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
    if (r.status !== 0) {
      process.stderr.write(r.stdout ?? '');
      console.error(`npm test: apt-get ${args[0]} failed (exit ${r.status}); install by hand: apt-get install -y ${pkgs.join(' ')}`);
      process.exit(1);
    }
  }
  const still = tools.filter((t) => !t.found());
  if (still.length > 0) {
    console.error(`npm test: still missing after apt-get install: ${still.map((t) => `${t.name} (${t.pkg})`).join(', ')}`);
    process.exit(1);
  }
}
