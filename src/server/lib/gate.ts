// A gate for expensive reads: at most `size` run at once, the rest wait their turn in order, and when
// too many wait the call is refused with 429 at once. On PGlite every query runs in this thread, so
// twenty deep list pages at once would hold the event loop, and every other request (the health
// check, sign-ins) would wait behind all of them (issue 8, docs/decisions/0802).
import { msg } from '#shared/api/messages.ts';
import { tooManyRequests } from './errors';

export class Gate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly size: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) {
      if (this.waiting.length >= this.maxWaiting) throw tooManyRequests(msg('errors.busy'), 1);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line; it is freed only when nobody waits.
      const next = this.waiting.shift();
      if (next) setImmediate(next);
      else this.running -= 1;
    }
  }
}
