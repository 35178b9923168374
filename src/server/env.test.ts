import { describe, expect, it } from 'vitest';
import { loadEnv } from './env';

describe('the environment schema', () => {
  it('requires PUBLIC_URL in production (issue 8, item 10), and only there', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL: required in production/);
    expect(loadEnv({ NODE_ENV: 'production', PUBLIC_URL: 'https://example.com' }).PUBLIC_URL).toBe(
      'https://example.com',
    );
    expect(loadEnv({ NODE_ENV: 'development' }).PUBLIC_URL).toBeUndefined();
  });

  it('takes only an http(s) address as PUBLIC_URL', () => {
    for (const bad of ['example.com', 'javascript:alert(1)', 'ftp://example.com'])
      expect(() => loadEnv({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
  });
});
