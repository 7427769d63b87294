/** Compiles the server and its DNS thread into build/ when missing or stale (see build-server.mjs). */
export function buildServer(): Promise<void>;
/** Makes a built bundle pure ASCII, replacing the non-ASCII characters of its comments; throws on one in code. */
export function asciiOnly(file: string): void;
/** The bundles esbuild writes into build/ (each run through its launcher or started as a thread). */
export const BUNDLES: readonly string[];
