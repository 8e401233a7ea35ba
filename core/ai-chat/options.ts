/**
 * The dashboard assistant's deployment options, handed in by the host (server-bin reads
 * GATEHOUSE_AI_BASE_URL / GATEHOUSE_AI_API_KEY / GATEHOUSE_AI_MODEL) or by an embedding app.
 * The dashboard's server settings may override the endpoint per deployment (settings.ts).
 */
export interface AiOptions {
  /** Base URL of an OpenAI-compatible API, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseUrl?: string | null;
  /** Bearer key for the endpoint; local model servers often need none. */
  apiKey?: string | null;
  /** Model name sent as `model`, e.g. `gpt-4o-mini` or `llama3.1`. */
  model?: string | null;
  /** Longest wait for one model request, in ms (default 60000); a stream that stalls this long is cut. */
  timeoutMs?: number;
  /** Tokens one project may spend per UTC day (default 200000; 0 = no budget). */
  dailyTokenBudget?: number;
  /** Rounds of tool calls the model may make per answer (default 4). */
  maxToolRounds?: number;
  /**
   * Gatehouse's documentation handed to the model as context: `{name, text}` per page (the host
   * reads `docs/*.md`, or the copies embedded in the single executable). Default: none.
   */
  docs?: () => readonly AiDoc[];
}

/** One documentation page: its file name (`security.md`) and markdown text. */
export interface AiDoc {
  name: string;
  text: string;
}

/** AiOptions with defaults filled in. */
export interface ResolvedAiOptions {
  baseUrl: string | null;
  apiKey: string | null;
  model: string | null;
  timeoutMs: number;
  dailyTokenBudget: number;
  maxToolRounds: number;
  docs: () => readonly AiDoc[];
}

/** Fills AiOptions' defaults; empty strings count as unset. */
export function resolveAiOptions(options: AiOptions = {}): ResolvedAiOptions {
  let docs: readonly AiDoc[] | null = null;
  return {
    baseUrl: options.baseUrl?.trim() || null,
    apiKey: options.apiKey || null,
    model: options.model?.trim() || null,
    timeoutMs: options.timeoutMs ?? 60_000,
    dailyTokenBudget: options.dailyTokenBudget ?? 200_000,
    maxToolRounds: options.maxToolRounds ?? 4,
    // Read once, on first use: the host's loader may touch the file system.
    docs: () => (docs ??= options.docs?.() ?? []),
  };
}
