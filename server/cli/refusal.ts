/** What the CLI will not do, and why: printed as it is, with exit code 1 and no usage text. */
export class Refusal extends Error {}
