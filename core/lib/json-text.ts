/** Metadata columns hold JSON text; null stays null. */
export function toJsonText(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

export function fromJsonText(text: string | null): unknown {
  return text === null ? null : JSON.parse(text);
}
