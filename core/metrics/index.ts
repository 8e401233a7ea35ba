export { getMetrics } from './get-metrics.ts';
export { getUserCounts } from './get-user-counts.ts';
export { getUserActivity } from './get-user-activity.ts';
