// Tests fail on an unexpected console.error (a swallowed bug is still a bug).
import { afterEach, beforeEach, vi } from 'vitest';

let errors: unknown[][] = [];

beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length) {
    const first = errors[0].map(String).join(' ');
    errors = [];
    throw new Error(`console.error was called during the test: ${first}`);
  }
});
