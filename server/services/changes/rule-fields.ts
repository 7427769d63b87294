/** Runs core rules for several fields and gathers every failure into one Invalid. */
import { Invalid, RuleError } from '../../core/errors';

export class FieldCheck {
  private readonly errors: Record<string, string> = {};

  /** The result of `rule()`, or undefined after recording its message under `field`. */
  run<T>(field: string, rule: () => T): T | undefined {
    try {
      return rule();
    } catch (e) {
      if (!(e instanceof RuleError)) throw e;
      this.errors[field] ??= e.message;
      return undefined;
    }
  }

  fail(field: string, message: string): void {
    this.errors[field] ??= message;
  }

  /** Throws Invalid when any rule failed. */
  done(): void {
    if (Object.keys(this.errors).length > 0) throw new Invalid(this.errors);
  }
}
