// A small in-process cache with expiry, for figures that may be a minute old (directory counts,
// navigation). Each instance keeps its own; nothing here must be exact.
export class TtlCache<V> {
  private map = new Map<string, { value: Promise<V>; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max = 5000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached value, or the loader's (shared by concurrent callers; a failure is not cached). */
  get(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.map.get(key);
    const t = this.now();
    if (hit && hit.expires > t) return hit.value;
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as string);
    const value = load();
    this.map.set(key, { value, expires: t + this.ttlMs });
    value.catch(() => this.map.delete(key));
    return value;
  }

  clear() {
    this.map.clear();
  }
}
