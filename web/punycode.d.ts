/** punycode.js's ES module (the package ships no types of its own). */
declare module 'punycode/punycode.es6.js' {
  export function toUnicode(domain: string): string;
  export function toASCII(domain: string): string;
}
