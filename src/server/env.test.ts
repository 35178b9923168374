import fs from 'node:fs';
import path from 'node:path';
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

  it('seeds demo advertisers outside production only, unless SEED_PROFILES asks (issue 45 item 2)', () => {
    const prod = { NODE_ENV: 'production', PUBLIC_URL: 'https://example.com' };
    expect(loadEnv(prod).SEED_PROFILES).toBe(0);
    expect(loadEnv({ ...prod, SEED_PROFILES: '50' }).SEED_PROFILES).toBe(50);
    expect(loadEnv({ NODE_ENV: 'development' }).SEED_PROFILES).toBe(600);
    expect(loadEnv({ NODE_ENV: 'development', SEED_PROFILES: '0' }).SEED_PROFILES).toBe(0);
  });

  it("refuses the tests' crash switch outside the tests (issue 45 item 1)", () => {
    const prod = { NODE_ENV: 'production', PUBLIC_URL: 'https://example.com' };
    expect(() => loadEnv({ ...prod, MONEY_FAULT_POINT: 'after_provider_charge' })).toThrow(
      /MONEY_FAULT_POINT: only for the tests/,
    );
    expect(() => loadEnv({ MONEY_FAULT_POINT: 'after_provider_charge' })).toThrow(/MONEY_FAULT_POINT/);
    expect(loadEnv({ NODE_ENV: 'test', MONEY_FAULT_POINT: 'after_provider_charge' }).MONEY_FAULT_POINT).toBe(
      'after_provider_charge',
    );
  });

  it('takes only an http(s) address as PUBLIC_URL', () => {
    for (const bad of ['example.com', 'javascript:alert(1)', 'ftp://example.com'])
      expect(() => loadEnv({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
  });

  it('stores media in S3 only with two different buckets, and says so for a half-written configuration', () => {
    const s3 = { S3_BUCKET: 'media', S3_PRIVATE_BUCKET: 'media-private', S3_FORCE_PATH_STYLE: '1' };
    expect(loadEnv(s3)).toMatchObject({ S3_BUCKET: 'media', S3_FORCE_PATH_STYLE: true, S3_REGION: 'us-east-1' });
    expect(loadEnv({}).S3_FORCE_PATH_STYLE).toBe(false);
    expect(() => loadEnv({ S3_BUCKET: 'media' })).toThrow(/S3_PRIVATE_BUCKET: required with S3_BUCKET/);
    expect(() => loadEnv({ ...s3, S3_PRIVATE_BUCKET: 'media' })).toThrow(/S3_PRIVATE_BUCKET: must differ/);
    expect(() => loadEnv({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_BUCKET: required when S3_ENDPOINT/);
    expect(() => loadEnv({ ...s3, S3_ACCESS_KEY_ID: 'key' })).toThrow(/S3_SECRET_ACCESS_KEY: set both or neither/);
    expect(() => loadEnv({ ...s3, S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/);
  });

  it('reads TRUST_PROXY as true, false, a hop count or addresses, and refuses anything else at start', () => {
    for (const good of ['true', 'false', '1', '10.0.0.0/8, 127.0.0.1', 'loopback,::1', 'fd00::/8'])
      expect(loadEnv({ TRUST_PROXY: good }).TRUST_PROXY, good).toBe(good);
    expect(loadEnv({ TRUST_PROXY: '' }).TRUST_PROXY).toBeUndefined();
    // 'false' once reached Fastify as an address and the start failed with a stack trace (operator trial).
    for (const bad of ['no', 'yes', '10.0.0.0/33', '10.0.0.1/8/1', 'proxy.example.com', '1.2.3'])
      expect(() => loadEnv({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: true, false, a hop count/);
  });

  it('refuses DATABASE_URL without SESSION_SECRET, and keeps the embedded default without one', () => {
    expect(() => loadEnv({ DATABASE_URL: 'postgres://db/x' })).toThrow(/SESSION_SECRET: required with DATABASE_URL/);
    expect(loadEnv({ DATABASE_URL: 'postgres://db/x', SESSION_SECRET: 'x'.repeat(32) }).SESSION_SECRET).toBe(
      'x'.repeat(32),
    );
    expect(loadEnv({}).SESSION_SECRET).toBeUndefined();
    // Empty is unset, and a short one is told in words an operator reads (not the API's message keys).
    expect(() => loadEnv({ DATABASE_URL: 'postgres://db/x', SESSION_SECRET: '' })).toThrow(
      /SESSION_SECRET: required with DATABASE_URL/,
    );
    expect(() => loadEnv({ SESSION_SECRET: 'short' })).toThrow(
      /SESSION_SECRET: Too small: expected string to have >=16/,
    );
  });

  it('takes Verotel FlexPay for cards only with its shop ID and signature key (decision 0420)', () => {
    expect(() => loadEnv({ CARD_PROVIDER: 'verotel' })).toThrow(/VEROTEL_SHOP_ID: required when CARD_PROVIDER=verotel/);
    expect(() => loadEnv({ CARD_PROVIDER: 'verotel', VEROTEL_SHOP_ID: '12345' })).toThrow(/VEROTEL_SIGNATURE_KEY/);
    expect(() => loadEnv({ VEROTEL_SHOP_ID: 'shop' })).toThrow(/VEROTEL_SHOP_ID/);
    expect(loadEnv({ CARD_PROVIDER: 'verotel', VEROTEL_SHOP_ID: '12345', VEROTEL_SIGNATURE_KEY: 'key' })).toMatchObject(
      { VEROTEL_URL: 'https://secure.verotel.com', VEROTEL_TEST_MODE: 'false' },
    );
  });
  it('waits SHUTDOWN_DELAY seconds before closing the listener: 5 in production, 0 otherwise (decision 1011)', () => {
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://example.com' };
    expect(loadEnv(production).SHUTDOWN_DELAY).toBe(5);
    expect(loadEnv({ ...production, SHUTDOWN_DELAY: '' }).SHUTDOWN_DELAY).toBe(5);
    expect(loadEnv({ ...production, SHUTDOWN_DELAY: '0' }).SHUTDOWN_DELAY).toBe(0);
    expect(loadEnv({}).SHUTDOWN_DELAY).toBe(0);
    expect(loadEnv({ NODE_ENV: 'test', SHUTDOWN_DELAY: '1.5' }).SHUTDOWN_DELAY).toBe(1.5);
    for (const bad of ['-1', 'soon', '3601'])
      expect(() => loadEnv({ SHUTDOWN_DELAY: bad }), bad).toThrow(/SHUTDOWN_DELAY/);
  });

  it('fits SHUTDOWN_DELAY and SHUTDOWN_TIMEOUT in the stop grace of the shipped unit and compose file, with room to spare', () => {
    const deploy = path.resolve(import.meta.dirname, '../../deploy');
    const read = (f: string) => fs.readFileSync(path.join(deploy, f), 'utf8');
    const example = Object.fromEntries(
      [...read('app.env.example').matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1], m[2]]),
    );
    const env = loadEnv({ ...example, SESSION_SECRET: 'a'.repeat(64) });
    expect(env).toMatchObject({ SHUTDOWN_DELAY: 5, SHUTDOWN_TIMEOUT: 20 });
    // The hand-back, the database's close and a slow supervisor get the rest: at least 5 s.
    const needed = env.SHUTDOWN_DELAY + env.SHUTDOWN_TIMEOUT + 5;
    expect(Number(/^TimeoutStopSec=(\d+)$/m.exec(read('directory@.service'))?.[1])).toBeGreaterThanOrEqual(needed);
    expect(Number(/stop_grace_period: (\d+)s/.exec(read('compose.yaml'))?.[1])).toBeGreaterThanOrEqual(needed);
  });
});
