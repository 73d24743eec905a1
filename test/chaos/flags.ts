/**
 * Command-line flags of the long runs (`npm run chaos`, `npm run soak`): a bad value stops the run
 * with exit code 2, naming the flag. And their ending: the figures as a table, then exit 1 with
 * every failure, or the line that says all held.
 */
export function wholeNumber(name: string, v: string, min: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be a whole number of at least ${min}`);
    process.exit(2);
  }
  return n;
}

export function dialectFlag(v: string | undefined, fallback: 'sqlite' | 'postgres'): 'sqlite' | 'postgres' {
  const dialect = v ?? fallback;
  if (dialect !== 'sqlite' && dialect !== 'postgres') {
    console.error('--db must be sqlite or postgres');
    process.exit(2);
  }
  return dialect;
}

export function finishRun(result: { figures: Record<string, unknown>; failures: string[] }, allHeld: string): void {
  console.log('\n| figure | value |\n|---|---|');
  for (const [k, v] of Object.entries(result.figures)) console.log(`| ${k} | ${v} |`);
  if (result.failures.length) {
    console.log(`\nFAILED (${result.failures.length}):`);
    for (const f of result.failures) console.log(`- ${f}`);
    process.exit(1);
  }
  console.log(`\n${allHeld}`);
}
