// Which OPTIONS-preflight problems (kv/options.ts checkRocksCompat) stop a read, and which only deserve a warning.
// checkRocksCompat returns sentences; the fatal ones are told by their wording, which options.ts keeps stable:
// a table format or codec this build cannot read, a comparator other than bytewise, a merge operator we lack.
// A newer major RocksDB or an unknown build version may still read fine, so those only warn.

const FATAL_WORDING = [
  'which needs RocksDB >=',
  'which this RocksDB build lacks',
  'a codec this check does not know',
  'is no longer readable by RocksDB',
  'keys are ordered by',
  'which tongate does not provide',
];

export function fatalRocksProblems(problems: readonly string[]): string[] {
  return problems.filter((p) => FATAL_WORDING.some((w) => p.includes(w)));
}
