/**
 * The content key of a file's text: its SHA-1, from Web Crypto. A module of its own, so that the
 * parse workers, which hash every file they index, load nothing else of the symbol cache
 * (cache.ts): node:crypto, which its synchronous hash uses, costs a worker's start tens of
 * milliseconds of CPU to load, more than the files of a cold question take to parse.
 * @module
 */

/** SHA-1 of the bytes, as 40 hex digits: the content key of a cache entry. */
export async function contentHash(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-1", bytes as Uint8Array<ArrayBuffer>),
  );
  let hex = "";
  for (const b of digest) hex += b.toString(16).padStart(2, "0");
  return hex;
}
