/** Compiles the server and its DNS thread into build/ (see build-server.mjs). */
export function buildServer(): Promise<void>;
