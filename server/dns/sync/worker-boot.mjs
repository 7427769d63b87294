// Entry of the DNS thread: a worker does not inherit the main thread's TypeScript loader,
// so it registers tsx itself before loading the thread's code.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
