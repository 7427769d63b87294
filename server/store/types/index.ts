/**
 * The Store interface: everything services, the DNS server and the CLI may ask of the
 * database, by area, one file each. Services see only this; SQLite and PostgreSQL implement it.
 */
export * from './common';
export * from './accounts';
export * from './sign-in';
export * from './zones';
export * from './transfers';
export * from './history';
export * from './deleted-zones';
export * from './across-zones';
export * from './stats';
export * from './health';
export * from './cluster';
export * from './store';
export * from './database-files';
