import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/env.js';
import { objectStoreLocation } from '../../server/src/lib/storage-config.js';
import { makeTraCertificate } from '../setup/tra-cert.js';

describe('configuration', () => {
  const dataDir = () => mkdtempSync(path.join(tmpdir(), 'duka-cfg-'));

  it('defaults to port 8080, /api/v1 and SQLite under ./data', () => {
    const cfg = loadConfig({ JWT_SECRET: 'x'.repeat(32) });
    expect(cfg).toMatchObject({ PORT: 8080, BASE_PATH: '/api/v1', DATA_DIR: './data', CORS_ORIGINS: [] });
    expect(cfg.DATABASE_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: 'eighty' }, 'Invalid configuration: PORT must be a number'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be at most 65535'],
    [{ BASE_PATH: '/api/v1/' }, 'Invalid configuration: BASE_PATH must look like /api/v1 (leading slash, no trailing slash)'],
    [
      { DATABASE_URL: 'mysql://db/duka' },
      'Invalid configuration: DATABASE_URL must be a postgres:// URL (leave unset for embedded SQLite)',
    ],
    [{ JWT_SECRET: 'short' }, 'Invalid configuration: JWT_SECRET must be at least 32 characters'],
    [
      { CORS_ORIGINS: 'shop.example' },
      'Invalid configuration: CORS_ORIGINS must be * or comma-separated origins like https://shop.example',
    ],
    [
      { SMS_PROVIDER: 'beem', SMS_API_KEY: 'k', SMS_SENDER_ID: 'DUKA' },
      'Invalid configuration: SMS_API_SECRET is required when SMS_PROVIDER is beem',
    ],
    [
      { PAYMENT_PROVIDER: 'azampay', AZAMPAY_APP_NAME: 'duka' },
      'Invalid configuration: AZAMPAY_CLIENT_ID is required when PAYMENT_PROVIDER is azampay',
    ],
    [{ SMS_PROVIDER: 'twilio' }, 'Invalid configuration: SMS_PROVIDER must be one of: log, beem, africastalking, nextsms'],
    [
      { TRA_ANSWER_CERT: 'not a certificate' },
      'Invalid configuration: TRA_ANSWER_CERT must be a PEM certificate or public key with an RSA key',
    ],
    [
      { STORAGE_DRIVER: 's3', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' },
      'Invalid configuration: S3_BUCKET is required when STORAGE_DRIVER is s3',
    ],
    [
      { STORAGE_DRIVER: 's3', S3_BUCKET: 'duka-files', S3_ACCESS_KEY_ID: 'k' },
      'Invalid configuration: S3_SECRET_ACCESS_KEY is required when STORAGE_DRIVER is s3',
    ],
    [{ STORAGE_DRIVER: 'gcs' }, 'Invalid configuration: STORAGE_DRIVER must be one of: local, s3'],
    [
      { S3_BUCKET: 'Duka_Files' },
      'Invalid configuration: S3_BUCKET must be a bucket name (3-63 lowercase letters, digits, dots and dashes)',
    ],
    [{ S3_PREFIX: '/duka/' }, 'Invalid configuration: S3_PREFIX must be a folder path like duka/prod (no leading or trailing slash)'],
  ])('stops with one clear line for %o', (env, message) => {
    expect(() => loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env })).toThrowError(new ConfigError(message));
  });

  it('generates a JWT secret once and keeps it in the data dir', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const second = loadConfig({ DATA_DIR: dir });
    expect(first.JWT_SECRET).toHaveLength(64);
    expect(second.JWT_SECRET).toBe(first.JWT_SECRET);
    expect(readFileSync(path.join(dir, 'jwt-secret'), 'utf8').trim()).toBe(first.JWT_SECRET);
    expect(statSync(path.join(dir, 'jwt-secret')).mode & 0o777).toBe(0o600);
  });

  it('with DATABASE_URL, refuses to start without JWT_SECRET instead of making one up per instance', () => {
    const dir = dataDir();
    expect(() => loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db/duka' })).toThrowError(
      new ConfigError(
        'Invalid configuration: JWT_SECRET is required when DATABASE_URL is set (every server instance on the database must sign and seal with the same secret: give them all the same value, at least 32 characters)',
      ),
    );
    expect(existsSync(path.join(dir, 'jwt-secret'))).toBe(false);
    expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db/duka', JWT_SECRET: 'x'.repeat(32) }).JWT_SECRET).toBe('x'.repeat(32));
  });

  it('reads CORS origins as a list', () => {
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(32), CORS_ORIGINS: 'https://a.tz, https://b.tz' }).CORS_ORIGINS).toEqual([
      'https://a.tz',
      'https://b.tz',
    ]);
  });

  it('reads TRUST_PROXY as hops (unset, false and 0: none; true: 1) or trusted addresses, and refuses anything else', () => {
    const trust = (v?: string) => loadConfig({ JWT_SECRET: 'x'.repeat(32), ...(v === undefined ? {} : { TRUST_PROXY: v }) }).TRUST_PROXY;
    expect([trust(), trust('false'), trust('0'), trust('true'), trust('2')]).toEqual([0, 0, 0, 1, 2]);
    expect(trust('loopback, 10.0.0.0/8, 2001:db8::1')).toEqual(['loopback', '10.0.0.0/8', '2001:db8::1']);
    expect(() => trust('yes please')).toThrowError(ConfigError);
    expect(() => trust('10.0.0.0/99')).toThrowError(/TRUST_PROXY must be a number of hops or addresses/);
    const limits = loadConfig({ JWT_SECRET: 'x'.repeat(32) });
    expect([
      limits.RATE_LIMIT_ADDRESS_FAILURES_PER_MIN,
      limits.RATE_LIMIT_ADDRESS_CODES_PER_MIN,
      limits.RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR,
    ]).toEqual([300, 120, 20]);
  });

  it('keeps files on disk by default; STORAGE_DRIVER=s3 reads the bucket settings', () => {
    expect(loadConfig({ JWT_SECRET: 'x'.repeat(32) })).toMatchObject({
      STORAGE_DRIVER: 'local',
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: false,
    });
    const s3 = {
      JWT_SECRET: 'x'.repeat(32),
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'duka-files',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
    };
    const minio = loadConfig({ ...s3, S3_ENDPOINT: 'http://minio:9000/', S3_FORCE_PATH_STYLE: 'true', S3_PREFIX: 'duka/prod' });
    expect(minio).toMatchObject({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: true,
      S3_PREFIX: 'duka/prod',
    });
    // What a backup records about where the files are: no credentials.
    expect(objectStoreLocation(minio)).toBe('s3://duka-files/duka/prod/ at minio:9000');
    expect(objectStoreLocation(loadConfig(s3))).toBe('s3://duka-files/ (AWS us-east-1)');
  });

  it('reads TRA_ANSWER_CERT as a certificate or a public key, on one line with \\n escapes too', () => {
    const cert = makeTraCertificate();
    const read = (pem: string) => loadConfig({ JWT_SECRET: 'x'.repeat(32), TRA_ANSWER_CERT: pem }).TRA_ANSWER_CERT;
    expect(read(cert.certPem)).toBe(cert.certPem);
    expect(read(cert.publicKeyPem.replaceAll('\n', '\\n'))).toBe(cert.publicKeyPem);
  });
});
