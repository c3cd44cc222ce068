/**
 * What replace_symbol_body's new body replaces, decided from the symbol's declaration (see
 * declaration_parts.ts) and the body's own parts, the same way in every language:
 *
 * - Lead: doc comments, attributes (`#[test]`, `#[derive]`) and decorators stay unless the body
 *   brings its own; doc comments, other comments and attributes count apart, so a body with
 *   `#[test]` but no doc comment keeps the doc comment, and a new JSDoc keeps the
 *   `// eslint-disable-next-line` below the old one. What the body brings replaces the old of its
 *   kind.
 * - Head: a body may start at the name (as tsserver's `export const x` range does), at any word
 *   of the head (`const x`, `fn x`: the words before stay), or with a head of its own (`export
 *   function x` for `export const x`). A head of its own must not drop what makes the symbol
 *   visible or static (`export`, `pub`, `public`, `static`, ...).
 *
 * Anything else is refused, naming what would be lost, and nothing is changed.
 * @module
 */
import { indentLater, indentOf, relativeBody } from "./body_indent.ts";
import {
  type Declaration,
  type LeadItem,
  type LeadSyntax,
  nameIn,
  scanLead,
} from "./declaration_parts.ts";

/** The symbol a body replaces, in its file. */
export interface BodySite {
  /** The file's text (`\n` line endings). */
  text: string;
  declaration: Declaration;
  syntax: LeadSyntax;
  /** The file's extension, lower case (indentation rules differ). */
  ext: string;
  /** For messages: the symbol's name path. */
  namePath: string;
  /** For messages: the file. */
  relPath: string;
}

/** The edit to make (offsets in the file's text, the text indented for its place), or why not. */
export type BodyFit = { from: number; to: number; text: string } | { refused: string };

/** Head words that change who sees the symbol or what it belongs to, by group. */
const KEPT_MODIFIERS: readonly RegExp[] = [
  /^(export|pub(\(.*\))?|public|protected|private|internal)$/,
  /^default$/,
  /^static$/,
  /^declare$/,
];

const NOTHING_CHANGED = "Nothing was changed.";

/** Fit a new body (trimmed, first line flush left) to the declaration it replaces. */
export function fitBody(body: string, site: BodySite): BodyFit {
  const decl = site.declaration;
  const rel = relativeBody(body, decl.indent, site.ext);
  const scan = scanLead(rel, 0, site.syntax);
  const bodyDecl = rel.slice(scan.declAt);
  if (bodyDecl.trim() === "") {
    return {
      refused: `The new body holds only comments or attributes; replace_symbol_body needs the ` +
        `definition of ${quote(site.namePath)} after them. ${NOTHING_CHANGED}`,
    };
  }
  const cut = headCut(bodyDecl, site);
  if (typeof cut === "string") return { refused: cut };
  if (scan.items.length === 0) {
    return { from: cut, to: decl.end, text: indentLater(bodyDecl, decl.indent) };
  }
  if (decl.lead.length === 0 && !decl.headStartsLine) {
    return {
      refused: `The new body starts with comments or attributes, but ${quote(site.namePath)} ` +
        `is declared after other code on ${lineOf(site, decl.headFrom)}, so they would stand ` +
        `above that code. Give the body without them. ${NOTHING_CHANGED}`,
    };
  }
  const oldItems = decl.lead.map((item) => ({ kind: item.kind, text: itemText(site.text, item) }));
  const newItems = scan.items.map((item) => ({
    kind: item.kind,
    text: rel.slice(item.from, item.to),
  }));
  const kept = dedentLines(site.text.slice(decl.headFrom, cut), decl.indent);
  const lead = mergeLead(oldItems, newItems).join("\n");
  return {
    from: decl.lead[0]?.from ?? decl.headFrom,
    to: decl.end,
    text: indentLater(`${lead}\n${kept}${bodyDecl}`, decl.indent),
  };
}

/**
 * Where in the file the body's declaration starts replacing: the name, a word of the head, or
 * the head's start; a message when the body would lose part of the head.
 */
function headCut(bodyDecl: string, site: BodySite): number | string {
  const decl = site.declaration;
  const old = decl.head;
  const nameAt = decl.name === "" ? -1 : nameIn(bodyDecl, decl.name, 0);
  if (nameAt < 0) {
    // Renamed, or a name the server made up: the body's first word anchors it in the head.
    const first = /^\S+/.exec(bodyDecl)![0];
    const opening = site.text[decl.nameAt >= 0 ? decl.nameAt : decl.headFrom];
    if (/^[{(=]/.test(first) && first[0] !== opening) {
      return `replace_symbol_body replaces the whole definition of ${quote(site.namePath)}, ` +
        `signature included, but the new body starts with ${quote(first.slice(0, 20))}: ` +
        `the signature on ${lineOf(site, decl.headFrom)} would be lost. Give the body from ` +
        `its signature on. ${NOTHING_CHANGED}`;
    }
    const at = old.map((w) => w.word).lastIndexOf(first);
    if (at >= 0) return old[at]!.at;
    return ownHead(words(bodyDecl.slice(0, Math.max(0, bodyDecl.search(/[({=:]/)))), site);
  }
  const bodyHead = words(bodyDecl.slice(0, nameAt));
  const k = bodyHead.length;
  const suffix = k <= old.length && bodyHead.every((w, i) => w === old[old.length - k + i]!.word);
  if (suffix) {
    return k === 0 ? (decl.nameAt >= 0 ? decl.nameAt : decl.headFrom) : old[old.length - k]!.at;
  }
  if (!decl.headStartsLine) {
    return `${quote(site.namePath)} is declared after other code on ` +
      `${lineOf(site, decl.headFrom)}, so the new body must start at ${quote(decl.name)}, ` +
      `not with ${quote(bodyHead.join(" "))}. ${NOTHING_CHANGED}`;
  }
  return ownHead(bodyHead, site);
}

/** A body with a head of its own replaces the whole head, unless a kept modifier would go. */
function ownHead(bodyHead: readonly string[], site: BodySite): number | string {
  const decl = site.declaration;
  const lost = decl.head.filter((w) =>
    KEPT_MODIFIERS.some((group) => group.test(w.word) && !bodyHead.some((b) => group.test(b)))
  );
  if (lost.length === 0) return decl.headFrom;
  const missing = lost.map((w) => quote(w.word)).join(" and ");
  const suggested = [...lost.map((w) => w.word), ...bodyHead, decl.name].join(" ");
  return `The new body declares ${quote(site.namePath)} without ${missing}, which its ` +
    `definition has (${lineOf(site, decl.headFrom)}): that would be lost. Start the body with ` +
    `${quote(suggested)} to keep it, or at ${quote(decl.name)} to keep the head as it is. ` +
    NOTHING_CHANGED;
}

/**
 * The lead after the body's: what the body brings replaces the old of its kind (at the place of
 * the first old one); the old of a kind the body does not bring stays. New comments go first,
 * new attributes last, when the old lead had none of their kind.
 */
function mergeLead(
  old: ReadonlyArray<{ kind: LeadItem["kind"]; text: string }>,
  brought: ReadonlyArray<{ kind: LeadItem["kind"]; text: string }>,
): string[] {
  const kinds = new Set(brought.map((i) => i.kind));
  const ofKind = (kind: string) => brought.filter((i) => i.kind === kind).map((i) => i.text);
  const out: string[] = [];
  const placed = new Set<string>();
  for (const item of old) {
    if (!kinds.has(item.kind)) out.push(item.text);
    else if (!placed.has(item.kind)) {
      placed.add(item.kind);
      out.push(...ofKind(item.kind));
    }
  }
  const first = (["doc", "comment"] as const).filter((k) => kinds.has(k) && !placed.has(k));
  out.unshift(...first.flatMap(ofKind));
  if (kinds.has("attribute") && !placed.has("attribute")) out.push(...ofKind("attribute"));
  return out;
}

/** A lead item of the file, its later lines relative to its own line's indentation. */
function itemText(text: string, item: LeadItem): string {
  const lineStart = text.lastIndexOf("\n", item.from - 1) + 1;
  return dedentLines(text.slice(item.from, item.to), indentOf(text.slice(lineStart)));
}

/** Later lines lose `indent` (text from the file, to be placed again relative to column 0). */
function dedentLines(text: string, indent: string): string {
  return text.split("\n").map((line, i) =>
    i > 0 && indent !== "" && line.startsWith(indent) ? line.slice(indent.length) : line
  ).join("\n");
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== "");
}

function quote(text: string): string {
  return `'${text}'`;
}

/** "src/a.ts line 3 ('export const a = 1, b = 2')", for the line holding `at`. */
function lineOf(site: BodySite, at: number): string {
  const start = site.text.lastIndexOf("\n", at - 1) + 1;
  const end = site.text.indexOf("\n", at);
  const line = site.text.slice(start, end < 0 ? undefined : end).trim();
  const number = site.text.slice(0, start).split("\n").length;
  const shown = line.length > 60 ? `${line.slice(0, 57)}...` : line;
  return `${site.relPath} line ${number} (${quote(shown)})`;
}
