/** What the repos share: a page of rows, the window that asks for it, a row before its id. */

export interface Page<T> {
  rows: T[];
  total: number;
}

export interface Window {
  offset: number;
  limit: number;
}

export type NewRow<T extends { id: number }> = Omit<T, 'id'>;
