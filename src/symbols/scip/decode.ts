/**
 * Reads a SCIP index (Sourcegraph's code-intelligence format, protobuf) one document at a time.
 * An index is a protobuf `Index` message whose top-level fields are length-delimited: the
 * metadata (1), each document (2) and each external symbol (3). The reader takes the file in
 * chunks and decodes one top-level field at a time, so memory holds one document, never the whole
 * index; two indexes written one after the other are one index whose documents are both lists
 * (protobuf's own merge rule), which is how partial indexes built in parallel combine.
 *
 * Field numbers follow scip.proto (github.com/sourcegraph/scip). Only what the answers need is
 * decoded; the rest is skipped by wire type.
 * @module
 */
import { BinaryReader, WireType } from "../../deps.ts";

/** `SymbolRole` bits of an occurrence. */
export const SymbolRole = {
  Definition: 1,
  Import: 2,
  WriteAccess: 4,
  ReadAccess: 8,
  Generated: 16,
  Test: 32,
  ForwardDefinition: 64,
} as const;

/** A zero-based range: start line, start character, end line, end character. */
export type ScipRange = readonly [number, number, number, number];

export interface ScipOccurrence {
  range: ScipRange;
  /** The symbol's SCIP identifier (`local N` is local to its document). */
  symbol: string;
  /** {@linkcode SymbolRole} bits. */
  roles: number;
}

export interface ScipRelationship {
  symbol: string;
  isReference: boolean;
  isImplementation: boolean;
  isTypeDefinition: boolean;
  isDefinition: boolean;
}

export interface ScipSymbolInformation {
  symbol: string;
  /** `SymbolInformation.Kind` (0 when the indexer left it out). */
  kind: number;
  displayName: string;
  relationships: ScipRelationship[];
}

export interface ScipDocument {
  /** Relative to the project root, `/`-separated. */
  relativePath: string;
  language: string;
  occurrences: ScipOccurrence[];
  symbols: ScipSymbolInformation[];
}

export interface ScipMetadata {
  /** A `file://` URI. */
  projectRoot: string;
  toolName: string;
  toolVersion: string;
}

/** What {@linkcode readScipIndex} hands its caller, in file order. */
export interface ScipHandlers {
  metadata?(metadata: ScipMetadata): void;
  /** Each document, decoded. */
  document?(document: ScipDocument): void;
  /**
   * Each document's bytes, undecoded (a loader that decodes only what it keeps); valid only
   * during the call.
   */
  documentBytes?(bytes: Uint8Array): void;
  /** Bytes read so far, of `total`. */
  progress?(read: number, total: number): void;
}

/** A malformed index: the message says where. */
export class ScipFormatError extends Error {
  override name = "ScipFormatError";
}

function decodeRange(values: number[]): ScipRange {
  if (values.length === 3) return [values[0]!, values[1]!, values[0]!, values[2]!];
  if (values.length === 4) return [values[0]!, values[1]!, values[2]!, values[3]!];
  throw new ScipFormatError(`an occurrence range has ${values.length} numbers, not 3 or 4`);
}

function readInt32s(reader: BinaryReader, wireType: WireType, into: number[]): void {
  if (wireType === WireType.LengthDelimited) {
    const end = reader.uint32() + reader.pos;
    while (reader.pos < end) into.push(reader.int32());
  } else {
    into.push(reader.int32());
  }
}

function decodeOccurrence(bytes: Uint8Array): ScipOccurrence {
  const reader = new BinaryReader(bytes);
  const range: number[] = [];
  let symbol = "";
  let roles = 0;
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1) readInt32s(reader, wireType, range);
    else if (field === 2) symbol = reader.string();
    else if (field === 3) roles = reader.int32();
    else reader.skip(wireType);
  }
  return { range: decodeRange(range), symbol, roles };
}

function decodeRelationship(bytes: Uint8Array): ScipRelationship {
  const reader = new BinaryReader(bytes);
  const out: ScipRelationship = {
    symbol: "",
    isReference: false,
    isImplementation: false,
    isTypeDefinition: false,
    isDefinition: false,
  };
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1) out.symbol = reader.string();
    else if (field === 2) out.isReference = reader.bool();
    else if (field === 3) out.isImplementation = reader.bool();
    else if (field === 4) out.isTypeDefinition = reader.bool();
    else if (field === 5) out.isDefinition = reader.bool();
    else reader.skip(wireType);
  }
  return out;
}

function decodeSymbolInformation(bytes: Uint8Array): ScipSymbolInformation {
  const reader = new BinaryReader(bytes);
  const out: ScipSymbolInformation = { symbol: "", kind: 0, displayName: "", relationships: [] };
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1) out.symbol = reader.string();
    else if (field === 4) out.relationships.push(decodeRelationship(reader.bytes()));
    else if (field === 5) out.kind = reader.int32();
    else if (field === 6) out.displayName = reader.string();
    else reader.skip(wireType);
  }
  return out;
}

/** Decodes one `Document` message. */
export function decodeDocument(bytes: Uint8Array): ScipDocument {
  const reader = new BinaryReader(bytes);
  const out: ScipDocument = { relativePath: "", language: "", occurrences: [], symbols: [] };
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1) out.relativePath = reader.string();
    else if (field === 2) out.occurrences.push(decodeOccurrence(reader.bytes()));
    else if (field === 3) out.symbols.push(decodeSymbolInformation(reader.bytes()));
    else if (field === 4) out.language = reader.string();
    else reader.skip(wireType);
  }
  if (out.relativePath === "") throw new ScipFormatError("a document has no relative_path");
  return out;
}

function decodeMetadata(bytes: Uint8Array): ScipMetadata {
  const reader = new BinaryReader(bytes);
  const out: ScipMetadata = { projectRoot: "", toolName: "", toolVersion: "" };
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 2) {
      const tool = new BinaryReader(reader.bytes());
      while (tool.pos < tool.len) {
        const [toolField, toolWire] = tool.tag();
        if (toolField === 1) out.toolName = tool.string();
        else if (toolField === 2) out.toolVersion = tool.string();
        else tool.skip(toolWire);
      }
    } else if (field === 3) out.projectRoot = reader.string();
    else reader.skip(wireType);
  }
  return out;
}

/** Reads a base-128 varint at `offset`; null when the buffer ends first. */
function varintAt(buffer: Uint8Array, offset: number): { value: number; next: number } | null {
  let value = 0;
  let scale = 1;
  for (let i = offset; i < buffer.length && i < offset + 10; i++) {
    const byte = buffer[i]!;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
    scale *= 128;
  }
  if (buffer.length - offset >= 10) {
    throw new ScipFormatError(`a varint at byte ${offset} is too long`);
  }
  return null;
}

const CHUNK = 1 << 20;

/**
 * Reads the index at `path`, handing each top-level field to `handlers` as it is decoded. The
 * buffer holds at most one document (plus one read chunk).
 */
export async function readScipIndex(path: string, handlers: ScipHandlers): Promise<void> {
  const file = await Deno.open(path, { read: true });
  try {
    const total = (await file.stat()).size;
    let buffer = new Uint8Array(0);
    let start = 0; // the first byte of `buffer` not consumed yet
    let read = 0;
    let ended = false;
    const fill = async (): Promise<boolean> => {
      if (ended) return false;
      const chunk = new Uint8Array(CHUNK);
      const n = await file.read(chunk);
      if (n === null) {
        ended = true;
        return false;
      }
      read += n;
      const rest = buffer.subarray(start);
      const next = new Uint8Array(rest.length + n);
      next.set(rest);
      next.set(chunk.subarray(0, n), rest.length);
      buffer = next;
      start = 0;
      handlers.progress?.(read, total);
      return true;
    };
    while (true) {
      let tag = varintAt(buffer, start);
      while (tag === null) {
        if (!(await fill())) {
          if (start < buffer.length) throw new ScipFormatError("the index ends inside a field");
          return;
        }
        tag = varintAt(buffer, start);
      }
      const field = Math.floor(tag.value / 8);
      const wireType = tag.value & 7;
      if (wireType !== WireType.LengthDelimited) {
        throw new ScipFormatError(`top-level field ${field} has wire type ${wireType}`);
      }
      let length = varintAt(buffer, tag.next);
      while (length === null) {
        if (!(await fill())) throw new ScipFormatError("the index ends inside a field");
        tag = varintAt(buffer, start)!;
        length = varintAt(buffer, tag.next);
      }
      while (buffer.length - length.next < length.value) {
        if (!(await fill())) throw new ScipFormatError("the index ends inside a field");
        tag = varintAt(buffer, start)!;
        length = varintAt(buffer, tag.next)!;
      }
      const body = buffer.subarray(length.next, length.next + length.value);
      start = length.next + length.value;
      if (field === 1) handlers.metadata?.(decodeMetadata(body));
      else if (field === 2) {
        if (handlers.documentBytes) handlers.documentBytes(body);
        else handlers.document?.(decodeDocument(body));
      }
      // 3: external symbols (hover text of dependencies): not needed by the answers.
    }
  } finally {
    file.close();
  }
}
