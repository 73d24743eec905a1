/**
 * The agent's configuration: read once at start from the environment and validated, so a bad value
 * stops it with one line saying what is wrong; nothing reads the environment at request time.
 */
import { z } from 'zod';

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());

export const AgentConfig = z.object({
  AGENT_PORT: z.coerce.number().int().min(1).max(65535).default(8081),
  AGENT_HOST: z.string().min(1).default('0.0.0.0'),
  /** The API's base URL, BASE_PATH included. */
  API_URL: z
    .url()
    .default('http://localhost:8080/api/v1')
    .transform((u) => u.replace(/\/+$/, '')),
  /** An OpenAI-compatible API (`POST {AGENT_LLM_URL}/chat/completions` with tools); unset: the built-in planner answers. */
  AGENT_LLM_URL: optionalUrl.transform((u) => u?.replace(/\/+$/, '')),
  AGENT_LLM_KEY: z.string().optional(),
  AGENT_MODEL: z.string().min(1).default('gpt-4o-mini'),
  AGENT_LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(30_000),
  /** How long a proposed change waits for its confirmation. */
  AGENT_CONFIRM_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});
export type AgentConfig = z.infer<typeof AgentConfig>;

/** The config, or an Error whose message is one line naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined>): AgentConfig {
  const parsed = AgentConfig.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  throw new Error(`invalid agent configuration: ${problems.join('; ')}`);
}

/** The config with defaults for tests and embedding. */
export const agentConfig = (overrides: Partial<Record<keyof AgentConfig, string>> = {}): AgentConfig => loadConfig(overrides);
