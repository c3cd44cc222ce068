/**
 * The syntactic symbol index (tree-sitter), its parse workers and its persistence. See
 * declaration_index.ts.
 * @module
 */
export {
  type CandidateOptions,
  DeclarationIndex,
  type DeclarationIndexOptions,
  type ReadyOptions,
} from "./declaration_index.ts";
export type { IndexStats } from "./declaration_tables.ts";
export { grammarFor, INDEXED_EXTENSIONS } from "./grammars.ts";
export { PROVEN_SERVERS } from "./extract.ts";
export { ParseWorkers, type ParseWorkersOptions } from "./workers.ts";
