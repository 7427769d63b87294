/**
 * A User-Agent in the words a person recognises their device by: "Firefox 133 on Linux",
 * "Safari on iPhone", "Chrome 131 on Android". Only the browsers and systems people sign in from
 * are named; anything else shows as the product the header starts with ("curl 8.11"), and no header
 * as "Unknown browser". The header is the client's to write: this describes, it proves nothing.
 */

/** Checked in order: Edge and Opera also say Chrome, Chrome also says Safari. */
const BROWSERS: Array<[name: string, pattern: RegExp]> = [
  ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /OPR\/(\d+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /(?:HeadlessChrome|Chrome|CriOS)\/(\d+)/],
  ['Safari', /Version\/(\d+)[.\d]* (?:Mobile\/\S+ )?Safari\//],
];

const SYSTEMS: Array<[name: string, pattern: RegExp]> = [
  ['iPhone', /iPhone/],
  ['iPad', /iPad/],
  ['Android', /Android/],
  ['Windows', /Windows/],
  ['macOS', /Mac OS X|Macintosh/],
  ['ChromeOS', /CrOS/],
  ['Linux', /Linux/],
];

export function describeUserAgent(ua: string | null | undefined): string {
  if (!ua) return 'Unknown browser';
  const system = SYSTEMS.find(([, p]) => p.test(ua))?.[0];
  for (const [name, pattern] of BROWSERS) {
    const m = pattern.exec(ua);
    if (m) return `${name} ${m[1]}${system ? ` on ${system}` : ''}`;
  }
  // Not a browser: the product and its version, as the header starts ("curl/8.11.0" → "curl 8.11.0").
  const product = /^([A-Za-z][\w.-]{0,40})\/([\w.]{1,20})/.exec(ua);
  return product ? `${product[1]} ${product[2]}` : system ? `A browser on ${system}` : 'Unknown browser';
}
