export { getMetrics, METRICS_DAYS } from './get-metrics.ts';
