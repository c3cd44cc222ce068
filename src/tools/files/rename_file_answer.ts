/**
 * The text of rename_file's answers: the importers a move breaks or leaves naming the old path,
 * the errors it introduced, what proved it, and the files it does not update.
 * @module
 */
import type { LanguageServer } from "../../lsp/language_server.ts";
import type { ImportSite } from "../../toolchain/graph/importers.ts";
import type { PathMention } from "../../toolchain/graph/path_mentions.ts";
import { type IntroducedError, MAX_PROVEN_FILES, type MoveCheck } from "./rename_file_proof.ts";

/** Importers named in a refusal, at most (a forced move names every one it left broken). */
export const SHOWN_IMPORTERS = 20;

/** What proves the answer: who wrote the edits, and the errors before and after. */
export function proofText(
  proving: readonly MoveCheck[],
  own: ReadonlyArray<MoveCheck & { edits: readonly unknown[] }>,
  introduced: number,
  unchecked: number,
): string {
  const wrote = own.some((o) => o.edits.length > 0)
    ? `Sextant wrote the imports itself (${serverNames(own)}: no workspace/willRenameFiles). `
    : "";
  const checked = proving.reduce((n, o) => n + Math.min(o.files.length, MAX_PROVEN_FILES), 0);
  return wrote + `Checked with ${serverNames(proving)}: ` +
    (introduced === 0 ? "no new errors" : `${introduced} new errors`) +
    ` in the ${checked} files that name the moved code` +
    (unchecked > 0 ? `; ${unchecked} more not checked.` : ".");
}

/** The commands of the servers that checked or could not write a move's edits. */
export function serverNames(own: readonly MoveCheck[]): string {
  return [...new Set(own.map((o) => o.server.command))].join(" and ");
}

/** Errors as `file:line message`, all of them. */
export function errorsText(errors: readonly IntroducedError[]): string {
  return errors.map((e) => `${e.relPath}:${e.line} ${e.message}`).join("; ");
}

/** Manifest and build-file lines naming the old path, and strings naming the old module. */
export function mentionsText(
  mentions: readonly PathMention[],
  inStrings: readonly PathMention[],
): string {
  const lines = (list: readonly PathMention[]) =>
    list.map((m) => `${m.relPath}:${m.line} ${m.text}`).join("; ");
  return [
    mentions.length === 0 ? "" : `Not updated (they name the old path; Sextant does not edit ` +
      `manifests and build files): ${lines(mentions)}.`,
    inStrings.length === 0
      ? ""
      : `Not updated, strings naming the old module (no server checks them): ${lines(inStrings)}.`,
  ].filter(Boolean).join(" ");
}

/** Import lines the language server's edits leave naming the old path. */
export function notUpdatedText(
  sites: readonly ImportSite[],
  shownAtMost = SHOWN_IMPORTERS,
): string {
  const shown = sites.slice(0, shownAtMost).map((s) => `${s.relPath}:${s.line} ${s.text}`);
  const more = sites.length > shownAtMost ? ` and ${sites.length - shownAtMost} more` : "";
  return `The language server's edits for the move leave these imports naming the old path: ` +
    `${shown.join("; ")}${more}.`;
}

/** Import lines no server can update on a move (before it, or left broken after a forced one). */
export function brokenText(
  servers: readonly LanguageServer[],
  sites: readonly ImportSite[],
  shownAtMost: number,
  moved = false,
): string {
  const names = [...new Set(servers.map((s) => `${s.id} (${s.command})`))].join(", ");
  const shown = sites.slice(0, shownAtMost).map((s) => `${s.relPath}:${s.line} ${s.text}`);
  const more = sites.length > shownAtMost ? ` and ${sites.length - shownAtMost} more` : "";
  return `The ${names} language server cannot update imports on a move ` +
    `(no workspace/willRenameFiles); ${
      moved ? "these imports are now broken" : "these imports would break"
    }: ` +
    `${shown.join("; ")}${more}.`;
}
