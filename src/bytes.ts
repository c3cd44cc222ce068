/**
 * Bytes that come and go in parts: the chunks a pipe, a file or a chunked HTTP body gave, joined
 * into one array, and an array written whole where one write may take only part of it.
 * @module
 */

/**
 * The chunks `parts` as one array (the single chunk itself when there is one).
 *
 * @example
 * ```ts
 * import { concatBytes } from "./bytes.ts";
 * console.log(concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])])); // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

/** Write all of `bytes` to `writer` (a file, a connection: one write may take only part). */
export async function writeAll(
  writer: { write(bytes: Uint8Array): Promise<number> },
  bytes: Uint8Array,
): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    written += await writer.write(bytes.subarray(written));
  }
}
