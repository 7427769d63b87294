/** Master files in and out: pure, so the dashboard can preview an import too. */
export { parseZoneFile, parseZoneFileChunked, parseZoneFileOrThrow, zoneFileInvalid } from './parser';
export type { ParseOptions, ParsedZoneFile, ZoneFileError, ZoneFileIgnored, ZoneFileRecord, ZoneFileSoa } from './parser';
export { printZoneFile } from './printer';
export type { PrintableRecord, PrintableSoa } from './printer';
