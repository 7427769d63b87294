/** The public API from the test's side, with a token minted by the CLI: how the tests check what the dashboard did. */
export class ApiClient {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

  async call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }> {
    const res = await fetch(`${this.base}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  }

  async get(path: string): Promise<any> {
    const r = await this.call('GET', path);
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  /** Every record of a zone (up to 500), optionally only at one name. */
  records(domain: string, query = ''): Promise<Array<{ id: number; name: string; record_type: string; content: string; ttl: string; fqdn: string; disabled?: true }>> {
    return this.get(`/domains/${domain}/records?per_page=500${query ? `&${query}` : ''}`);
  }
}
