/** Compiles the server and its DNS thread into build/ when missing or stale (see build-server.mjs). */
export function buildServer(): Promise<void>;
