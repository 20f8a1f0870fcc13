// A value built on first use and kept: for what a process computes from constant inputs (the
// OpenAPI document, the tools' JSON Schemas) and may never need. Building such values when the app
// is assembled made every start, and every test that assembles an app, pay for them.

export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
