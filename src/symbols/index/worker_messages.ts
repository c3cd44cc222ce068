/**
 * The messages between the index and its parse workers.
 * @module
 */

/** A file to index, with what the index knew of it (to skip unchanged files). */
export interface ParseJob {
  relPath: string;
  absPath: string;
  known?: { hash: string; size: number; mtime: number } | undefined;
  /**
   * Index the file only when its text contains this (a search before the build is done wants
   * the files that may declare its name first); else answer "deferred".
   */
  needle?: string | undefined;
}

/** What a worker found for one file. */
export interface ParseResult {
  relPath: string;
  /**
   * "parsed": new declarations; "same": the file is unchanged (same size and modification
   * time, or same content hash) and the known declarations stand; "gone": it cannot be read;
   * "failed": the parser failed (not a syntax error: tree-sitter recovers from those);
   * "deferred": the text lacks the job's needle, so it was not indexed (hash left empty);
   * "untrusted": parsed, but the declarations cannot stand for the file (trust.ts; `error`
   * says why), so it is left to the language server.
   */
  status: "parsed" | "same" | "gone" | "failed" | "deferred" | "untrusted";
  hash: string;
  size: number;
  mtime: number;
  /** The declarations as JSON (CompactSymbol[]), when parsed. */
  symbols?: string;
  /** The names they declare, each once, as a JSON array of strings, when parsed. */
  names?: string;
  /** How many declarations, when parsed. */
  count?: number;
  /** Whether the declarations are exactly the language server's (see extract.ts). */
  exact?: boolean;
  /** Why parsing failed. */
  error?: string;
  /** When deferred: the text's distinct words (unparsed_words.ts `textWords`). */
  words?: string;
}

/** Main thread → worker. */
export interface ParseRequest {
  id: number;
  jobs: ParseJob[];
}

/** Worker → main thread. */
export type ParseReply =
  | { id: number; results: ParseResult[] }
  | { id: number; error: string };
