// The long-running devnet commands' log: the commands' one format (src/cli/log.ts), debug lines only with --verbose.
import { cliLogger, logTo } from './log.ts';

export function lineLog(
  verbose: boolean,
  err: (line: string) => void,
): (level: string, msg: string, fields?: Record<string, unknown>) => void {
  const log = logTo(cliLogger({ level: verbose ? 'debug' : 'info', write: err }));
  return (level, msg, fields) => {
    const l = level === 'debug' || level === 'warn' || level === 'error' ? level : 'info';
    log(l, msg, fields);
  };
}
