/** Command-line flags of the long runs (`npm run chaos`, `npm run soak`): a bad value stops the run with exit code 2, naming the flag. */
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
