// The --metrics-port and --metrics-host options of the processes without the API server (tongate work, tongate
// walk); the listener itself is serveMetrics in src/app.ts.
import type { OptionSpec } from './command.ts';

export const metricsOptions: Record<string, OptionSpec> = {
  'metrics-port': {
    type: 'string',
    value: 'PORT',
    description: 'serve Prometheus metrics at http://HOST:PORT/metrics and health at /healthz (off by default)',
  },
  'metrics-host': {
    type: 'string',
    value: 'HOST',
    description: 'interface of the metrics listener',
    default: '127.0.0.1',
  },
};
