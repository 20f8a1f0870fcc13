import { Client } from 'pg';

/**
 * Records the text of every statement that any pg client of this process sends while `during`
 * runs (the app's pool included): how tests count Postgres round trips (admission order, the
 * request id spent by the delivery). `install` in beforeAll, `uninstall` in afterAll.
 */
export class StatementRecorder {
  private readonly original = Client.prototype.query;
  private recording: string[] | null = null;

  install(): void {
    const original = this.original;
    const record = (text: string) => this.recording?.push(text);
    Client.prototype.query = function (this: Client, ...args: unknown[]) {
      const first = args[0];
      const text = typeof first === 'string' ? first : (first as { text?: string } | null)?.text;
      record(text ?? String(first));
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof Client.prototype.query;
  }

  uninstall(): void {
    Client.prototype.query = this.original;
  }

  /** The statements sent while `fn` ran, in order. */
  async during(fn: () => Promise<unknown>): Promise<string[]> {
    const statements: string[] = [];
    this.recording = statements;
    try {
      await fn();
    } finally {
      this.recording = null;
    }
    return statements;
  }
}
