/**
 * What the CLI's composition root (main.ts) hands the commands besides the services: the AXFR
 * client of the DNS side and the SQLite database as files. No other file of the CLI imports the
 * DNS server's or the store's insides; these interfaces are all the commands know of them.
 */
import type { ZoneFileIgnored, ZoneFileRecord, ZoneFileSoa } from '../core/zone-file';
import type { DatabaseFiles } from '../store/types';

/** A zone pulled from another primary by AXFR (`zones transfer`). */
export interface ZoneTransfer {
  /** Checks a `--tsig` argument (`algorithm:name:secret`) before anything is sent: throws naming what is wrong. */
  checkKey(tsig: string): void;
  /** The zone's records from `host:port`, the query signed with `tsig` and every answer verified when given; TransferError on a refusal or a broken answer. */
  pull(host: string, port: number, zone: string, tsig?: string): Promise<{ soa: ZoneFileSoa; records: ZoneFileRecord[]; ignored: ZoneFileIgnored[] }>;
}

export interface CliDeps {
  transfer: ZoneTransfer;
  /** backup, restore and `secrets rotate`'s key file. */
  files: DatabaseFiles;
}
