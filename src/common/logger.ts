// The one log call every part accepts (issue 22): a level, a message that says what happened once (past tense,
// style guide §6.3) and its fields. A part takes a Log (or Log<levels> when it logs at some levels only) and calls
// it; the commands make one over pino (src/cli/log.ts: JSON lines on the error stream, readable lines on a
// terminal), tests collect the calls.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Structured log sink: a level, a message and its fields. `L` narrows the levels a part logs at. */
export type Log<L extends LogLevel = LogLevel> = (level: L, msg: string, fields?: Record<string, unknown>) => void;
