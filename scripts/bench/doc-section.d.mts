/** docs/benchmarks.md of this repository. */
export declare const BENCHMARKS_FILE: string;
/** Replaces (or appends) the `bench:<name>` block of docs/benchmarks.md; returns the file written. */
export declare function writeDocSection(name: string, block: string): string;
