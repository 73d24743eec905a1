/**
 * Configuration, read once from the environment and validated with zod; the rest of the server
 * receives the resulting object and never reads `process.env` itself.
 */
import { createPublicKey, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SmsProviderName } from '@duka/shared';
import proxyaddr from 'proxy-addr';
import { z } from 'zod';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const url = z
  .string()
  .url()
  .transform((u) => u.replace(/\/+$/, ''));

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: int(0, 65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  BASE_PATH: z
    .string()
    .regex(/^(\/[A-Za-z0-9._~-]+)+$/, 'must look like /api/v1 (leading slash, no trailing slash)')
    .default('/api/v1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave unset for embedded SQLite)')
    .optional(),
  /**
   * Postgres behind a pooler in transaction mode (PgBouncer, a managed database's pooler): a
   * direct connection to the database for what needs one session throughout, LISTEN for realtime
   * and the migrator's lock (and pg_dump for backups); DATABASE_URL then names the pooler.
   */
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  /** Postgres: connections each server instance keeps to the database (the pool's maximum). */
  DATABASE_POOL_SIZE: int(1, 1000).default(10),
  /**
   * SQLite: worker threads reading for the server (product search, reports) off its event loop,
   * each with a read-only connection of its own; 0 reads on the main connection. Default: one a
   * core, 2 to 4 (db/sqlite.ts).
   */
  SQLITE_READ_THREADS: int(0, 64).optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every((o) => o === '*' || /^https?:\/\/[^/]+$/.test(o)),
      'must be * or comma-separated origins like https://shop.example',
    ),
  SITE_URL: url.default('http://localhost:3000'),
  PUBLIC_URL: url.optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  EMAIL_FROM: z.string().default('Duka <no-reply@duka.local>'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_TOKEN_TTL: int(60, 86_400).default(900),
  REFRESH_TOKEN_TTL_DAYS: int(1, 365).default(30),
  REFRESH_REUSE_GRACE_SECONDS: int(0, 300).default(30),
  AI_GATEWAY_URL: url.default('https://api.openai.com/v1'),
  AI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  RATE_LIMIT_AUTH_PER_MIN: int(1, 1_000_000).default(10),
  RATE_LIMIT_USER_PER_MIN: int(1, 1_000_000).default(600),
  /** Refused sign-ins (wrong passwords, codes, tokens) one address may make in a minute: a carrier's shared address stays usable. */
  RATE_LIMIT_ADDRESS_FAILURES_PER_MIN: int(1, 1_000_000).default(300),
  /** Codes and registrations (each sends a message) one address may ask for in a minute. */
  RATE_LIMIT_ADDRESS_CODES_PER_MIN: int(1, 1_000_000).default(120),
  /** Wrong passwords one account name may take in an hour from all addresses together; then only its proven addresses may try. */
  RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: int(1, 1_000_000).default(20),
  BODY_LIMIT_BYTES: int(1024, 50 * 1024 * 1024).default(1024 * 1024),
  CHANGE_LOG_RETENTION_DAYS: int(1, 3650).default(30),
  SYNC_MUTATION_RETENTION_DAYS: int(1, 3650).default(90),
  /** How long an Idempotency-Key's stored answer is replayed; then the key is forgotten. */
  IDEMPOTENCY_RETENTION_HOURS: int(1, 87_600).default(168),
  DEVICE_RETIRE_DAYS: int(1, 36500).default(365),
  /**
   * Which proxies in front of the server may say who the client is: a number of hops, or their
   * addresses and CIDR ranges (proxy-addr's names `loopback`, `linklocal`, `uniquelocal` too).
   * Unset, `false` or 0: no proxy, X-Forwarded-For is ignored; `true` means 1 hop, the safe reading.
   */
  TRUST_PROXY: z
    .string()
    .default('0')
    .transform((v, ctx) => {
      const trust = parseTrustProxy(v);
      if (typeof trust === 'string') ctx.addIssue({ code: 'custom', message: trust });
      return typeof trust === 'string' ? 0 : trust;
    }),
  /** The platform's SMS gateway (OTPs, temporary passwords, customer messages of shops without their own account); `log` sends nothing. */
  SMS_PROVIDER: z.enum(['log', ...SmsProviderName.options]).default('log'),
  SMS_API_KEY: z.string().min(1).optional(),
  SMS_API_SECRET: z.string().min(1).optional(),
  SMS_SENDER_ID: z.string().min(1).max(11).optional(),
  /** Endpoint overrides (a sandbox, or a local fake in tests); the drivers default to each gateway's live URL. */
  SMS_BEEM_URL: url.optional(),
  SMS_AFRICASTALKING_URL: url.optional(),
  SMS_NEXTSMS_URL: url.optional(),
  SMS_TIMEOUT_MS: int(100, 120_000).default(10_000),
  /** How subscriptions are paid; `none` fails a checkout's payment at once with a clear reason. */
  PAYMENT_PROVIDER: z.enum(['none', 'azampay', 'selcom']).default('none'),
  SELCOM_API_KEY: z.string().min(1).optional(),
  SELCOM_API_SECRET: z.string().min(1).optional(),
  SELCOM_VENDOR: z.string().min(1).optional(),
  SELCOM_URL: url.default('https://apigw.selcommobile.com'),
  AZAMPAY_APP_NAME: z.string().min(1).optional(),
  AZAMPAY_CLIENT_ID: z.string().min(1).optional(),
  AZAMPAY_CLIENT_SECRET: z.string().min(1).optional(),
  AZAMPAY_API_KEY: z.string().min(1).optional(),
  /** The secret AzamPay's callback URL carries (`?token=`): at least 24 characters. */
  AZAMPAY_CALLBACK_TOKEN: z.string().min(24, 'must be at least 24 characters').optional(),
  AZAMPAY_AUTH_URL: url.default('https://authenticator.azampay.co.tz'),
  AZAMPAY_CHECKOUT_URL: url.default('https://checkout.azampay.co.tz'),
  PAYMENT_TIMEOUT_MS: int(100, 120_000).default(15_000),
  /** TRA's VFD API and verification pages (docs/fiscal-wire.md); override to reach a sandbox or a local fake. */
  TRA_TEST_URL: url.default('https://virtual.tra.go.tz/efdmsRctApi'),
  TRA_PRODUCTION_URL: url.default('https://vfd.tra.go.tz'),
  TRA_TEST_VERIFY_URL: url.default('https://virtual.tra.go.tz/efdmsRctVerify/'),
  TRA_PRODUCTION_VERIFY_URL: url.default('https://verify.tra.go.tz/'),
  TRA_TIMEOUT_MS: int(100, 120_000).default(30_000),
  /**
   * TRA's certificate (or public key), PEM, `\n` escapes allowed: when set, every answer from TRA
   * must carry TRA's signature over its payload, or it counts as no answer. Unset: not checked.
   */
  TRA_ANSWER_CERT: z
    .string()
    .min(1)
    .transform((pem) => pem.replace(/\\n/g, '\n'))
    .refine((pem) => {
      try {
        return createPublicKey(pem).asymmetricKeyType === 'rsa';
      } catch {
        return false;
      }
    }, 'must be a PEM certificate or public key with an RSA key')
    .optional(),
  /** Where uploads, report exports and email attachments live: `local` (DATA_DIR/files) or `s3`, any S3-compatible store (docs/storage.md). */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  /** The store's URL when it is not AWS (R2, MinIO…); unset: AWS S3 in S3_REGION. */
  S3_ENDPOINT: url.optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 lowercase letters, digits, dots and dashes)')
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** true: `endpoint/bucket/key` URLs (MinIO and most self-hosted stores); false: `bucket.endpoint/key`. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** A folder in the bucket for this installation's files (`duka/prod`), so one bucket can hold several. */
  S3_PREFIX: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/,
      'must be a folder path like duka/prod (no leading or trailing slash)',
    )
    .optional(),
  /** How long a call to the store may wait for a connection or for its next bytes before it fails. */
  S3_TIMEOUT_MS: int(100, 120_000).default(30_000),
  /** The built till app (`npm run build`), served at /till/; default: the repository's web/dist. */
  WEB_DIST_DIR: z.string().min(1).optional(),
  /** The built back office (`npm run build`), served at /office/; default: the repository's office/dist. */
  OFFICE_DIST_DIR: z.string().min(1).optional(),
  /** Where backups go (default DATA_DIR/backups), how often the server takes one (minutes; 0 = never; embedded SQLite only) and how many are kept. */
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_EVERY: int(0, 525_600).default(360),
  BACKUP_KEEP: int(1, 10_000).default(14),
  /** Postgres: the folder of the pg_dump, pg_restore and psql that backups use (PATH when unset); pg_dump must be the database's major version or newer. */
  PG_BIN_DIR: z.string().min(1).optional(),
  /** GET /metrics on the API's port with `Authorization: Bearer <METRICS_TOKEN>`; and/or without a token on a port of its own. Neither set: not served. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_PORT: int(1, 65535).optional(),
  /** The readiness probe fails when the outbox's oldest undelivered message, or a job's run or failures, are older than this. */
  READY_STUCK_MINUTES: int(1, 10_080).default(30),
  /** 1: every response says how many SQL statements it ran (x-db-statements); for benchmarks. */
  COUNT_STATEMENTS: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1'),
});

/** TRUST_PROXY as proxy-addr takes it: hops to trust, or trusted addresses and ranges; a string is what is wrong. */
export function parseTrustProxy(value: string): number | string[] | string {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'false') return 0;
  if (v === 'true') return 1;
  if (/^\d+$/.test(v)) return Number(v) <= 16 ? Number(v) : 'must be at most 16 hops';
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    proxyaddr.compile(list);
  } catch (err) {
    return `must be a number of hops or addresses/CIDR ranges (${(err as Error).message})`;
  }
  return list;
}

export type Config = Omit<z.infer<typeof EnvSchema>, 'JWT_SECRET'> & { JWT_SECRET: string };

export class ConfigError extends Error {}

export const backupDir = (config: Pick<Config, 'BACKUP_DIR' | 'DATA_DIR'>): string =>
  config.BACKUP_DIR ?? path.join(config.DATA_DIR, 'backups');

/** This API's public origin (PUBLIC_URL, else this host's port), without a trailing slash. */
export const publicOrigin = (config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string =>
  (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');

/** Validate `env`; on embedded SQLite, generate and keep a JWT secret under DATA_DIR when none is given. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cfg = readConfig(env);
  // Every key (tokens, signed links, report URLs, sealed gateway credentials) derives from JWT_SECRET.
  // Instances sharing a Postgres database must share it too, so none is made up per DATA_DIR there.
  if (cfg.DATABASE_URL && !cfg.JWT_SECRET) {
    throw new ConfigError(
      'Invalid configuration: JWT_SECRET is required when DATABASE_URL is set (every server instance on the database must sign and seal with the same secret: give them all the same value, at least 32 characters)',
    );
  }
  return { ...cfg, JWT_SECRET: cfg.JWT_SECRET ?? persistentSecret(cfg.DATA_DIR) };
}

/**
 * Validate `env` without resolving the secret: a tool that must not generate one where none is
 * (`npm run move-to-postgres` reads the secret a stopped server used) starts here.
 */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Omit<Config, 'JWT_SECRET'> & { JWT_SECRET?: string } {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const cfg = parsed.data;
  if (cfg.DATABASE_DIRECT_URL && !cfg.DATABASE_URL)
    throw new ConfigError('Invalid configuration: DATABASE_DIRECT_URL is used only beside DATABASE_URL (the pooler); set both or neither');
  if (cfg.SMS_PROVIDER !== 'log') {
    const missing = (['SMS_API_KEY', 'SMS_API_SECRET', 'SMS_SENDER_ID'] as const).find((k) => !cfg[k]);
    if (missing) throw new ConfigError(`Invalid configuration: ${missing} is required when SMS_PROVIDER is ${cfg.SMS_PROVIDER}`);
  }
  if (cfg.PAYMENT_PROVIDER === 'azampay') {
    const missing = (
      ['AZAMPAY_APP_NAME', 'AZAMPAY_CLIENT_ID', 'AZAMPAY_CLIENT_SECRET', 'AZAMPAY_API_KEY', 'AZAMPAY_CALLBACK_TOKEN'] as const
    ).find((k) => !cfg[k]);
    if (missing) throw new ConfigError(`Invalid configuration: ${missing} is required when PAYMENT_PROVIDER is azampay`);
  }
  if (cfg.PAYMENT_PROVIDER === 'selcom') {
    const missing = (['SELCOM_API_KEY', 'SELCOM_API_SECRET', 'SELCOM_VENDOR'] as const).find((k) => !cfg[k]);
    if (missing) throw new ConfigError(`Invalid configuration: ${missing} is required when PAYMENT_PROVIDER is selcom`);
  }
  if (cfg.STORAGE_DRIVER === 's3') {
    const missing = (['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).find((k) => !cfg[k]);
    if (missing) throw new ConfigError(`Invalid configuration: ${missing} is required when STORAGE_DRIVER is s3`);
  }
  return cfg;
}

/** Where a server without JWT_SECRET keeps the secret it generated, under DATA_DIR. */
export const GENERATED_SECRET_FILE = 'jwt-secret';

function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, GENERATED_SECRET_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * The rate limits a load run (tests, chaos, soak, bench) lifts: one address opens hundreds of
 * shops and tills there, which the real limits rightly refuse. Strings, for a child's environment.
 */
export const LOAD_RUN_LIMITS = {
  RATE_LIMIT_AUTH_PER_MIN: '100000',
  RATE_LIMIT_USER_PER_MIN: '1000000',
  RATE_LIMIT_ADDRESS_FAILURES_PER_MIN: '100000',
  RATE_LIMIT_ADDRESS_CODES_PER_MIN: '100000',
} as const;

/** Defaults for tests and tools: every limit generous, nothing persisted. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'test-secret-test-secret-test-secret-0123', LOG_LEVEL: 'silent' });
  // Files (uploads, exports) go to a directory of the test's own, never the working copy's ./data.
  const dataDir = overrides.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'duka-test-'));
  const limits = Object.fromEntries(Object.entries(LOAD_RUN_LIMITS).map(([k, v]) => [k, Number(v)]));
  return { ...base, DATA_DIR: dataDir, ...limits, ...overrides };
}
