/**
 * The syntactic symbol index (tree-sitter), its parse workers and its persistence. See
 * declaration_index.ts.
 * @module
 */
export {
  type CandidateOptions,
  DeclarationIndex,
  type DeclarationIndexOptions,
  type IndexStats,
  type ReadyOptions,
} from "./declaration_index.ts";
export { grammarFor, INDEXED_EXTENSIONS } from "./grammars.ts";
export { ParseWorkers, type ParseWorkersOptions } from "./workers.ts";

import type { Project } from "../project/project.ts";
import type { Session } from "../session.ts";
import { DeclarationIndex } from "./declaration_index.ts";

const indexes = new WeakMap<Project, DeclarationIndex>();

/**
 * The declaration index of a project in this session: created on first use, told about every
 * file our tools write, saved and stopped with the session.
 */
export function declarationIndexFor(session: Session, project: Project): DeclarationIndex {
  let index = indexes.get(project);
  if (!index) {
    const created = new DeclarationIndex(project);
    index = created;
    indexes.set(project, created);
    session.own(created);
    session.onFilesChanged((paths) => created.filesChanged(paths));
  }
  return index;
}
