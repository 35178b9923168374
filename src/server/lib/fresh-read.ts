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

/**
 * FreshRead per key (a profile's live figures): the same rule for each key, and no memory kept for a key
 * once its reads are over.
 */
export class FreshReads<K, T> {
  private reads = new Map<K, { inflight?: Promise<T>; queued?: Promise<T> }>();

  constructor(private readonly read: (key: K) => Promise<T>) {}

  get(key: K): Promise<T> {
    let state = this.reads.get(key);
    if (!state) {
      state = {};
      this.reads.set(key, state);
    }
    const { inflight } = state;
    if (!inflight) return this.start(key, state);
    const s = state;
    return (s.queued ??= inflight
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        s.queued = undefined;
        return this.start(key, s);
      }));
  }

  private start(key: K, state: { inflight?: Promise<T>; queued?: Promise<T> }): Promise<T> {
    const p = this.read(key);
    state.inflight = p;
    const done = () => {
      if (state.inflight !== p) return;
      state.inflight = undefined;
      if (!state.queued && this.reads.get(key) === state) this.reads.delete(key);
    };
    p.then(done, done);
    return p;
  }
}

/**
 * FreshRead of a shared value together with whatever its callers name (docs/decisions/0722): one read
 * serves every caller that arrived while the previous one ran, and reads the keys they named in the
 * same round trip (a profile's live figures with the directory version). A caller joins a read only if
 * it starts after the call, as with FreshRead; a read is given the keys of every caller it serves,
 * fixed when it starts.
 */
export class FreshBatch<K, T> {
  private inflight?: Promise<T>;
  private queued?: { keys: Set<K>; promise: Promise<T> };

  constructor(private readonly read: (keys: ReadonlySet<K>) => Promise<T>) {}

  /** `key`: one key, or several (an array) named to the same read. */
  get(key?: K | readonly K[]): Promise<T> {
    const named: readonly K[] = key === undefined ? [] : Array.isArray(key) ? key : [key as K];
    if (!this.inflight) return this.start(new Set(named));
    // The read under way started before this call: take the next one, started when it ends, and name
    // this caller's key to it (it cannot start before this returns).
    let next = this.queued;
    if (!next) {
      const keys = new Set<K>();
      const after = this.inflight.then(
        () => undefined,
        () => undefined,
      );
      next = {
        keys,
        promise: after.then(() => {
          this.queued = undefined;
          return this.start(keys);
        }),
      };
      this.queued = next;
    }
    for (const k of named) next.keys.add(k);
    return next.promise;
  }

  private start(keys: ReadonlySet<K>): Promise<T> {
    const p = this.read(keys);
    this.inflight = p;
    const done = () => {
      if (this.inflight === p) this.inflight = undefined;
    };
    p.then(done, done);
    return p;
  }
}
