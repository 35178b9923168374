// A value read from the database for many concurrent callers at once, yet never older than the call:
// a caller joins a read only if that read starts after the call, so what was committed before it is
// seen (docs/decisions/0700). Under load, one query serves every request that arrived meanwhile.
export class FreshRead<T> {
  private inflight?: Promise<T>;
  private queued?: Promise<T>;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.inflight) return this.start();
    // The read under way started before this call: take the next one, started when it ends.
    return (this.queued ??= this.inflight
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        this.queued = undefined;
        return this.start();
      }));
  }

  private start(): Promise<T> {
    const p = this.read();
    this.inflight = p;
    const done = () => {
      if (this.inflight === p) this.inflight = undefined;
    };
    p.then(done, done);
    return p;
  }
}
