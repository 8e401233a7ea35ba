/** A started round-robin balancer (balancer.mjs). */
export interface Balancer {
  url: string;
  /** Requests sent to each backend, in the order given. */
  counts: number[];
  close(): Promise<void>;
}
export function startBalancer(backends: string[]): Promise<Balancer>;
