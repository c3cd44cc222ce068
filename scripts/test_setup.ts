/**
 * Prepares what the test suite needs before `deno test` runs. Language servers for the
 * integration tests are installed here (see the language-server engine).
 * @module
 */
if (import.meta.main) {
  console.error("test setup: nothing to install yet");
}
