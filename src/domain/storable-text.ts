/**
 * Text Postgres cannot store: U+0000 (refused in text and jsonb alike) and UTF-16 surrogates
 * without their pair (JSON escapes such as "\ud800" parse to them; they are no Unicode text, and
 * jsonb refuses them). A record holding either would fail inside the database and take its whole
 * import batch with it, so it is refused as a bad line first (contract §22.10).
 */
// eslint-disable-next-line no-control-regex -- U+0000 is what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function storable(text: string): boolean {
  return !UNSTORABLE.test(text);
}

/** The paths (`title`, `evidence.0.value`, a key itself) of `value`'s texts that are not storable. */
export function unstorableTexts(value: unknown, path: readonly string[] = []): string[] {
  if (typeof value === 'string') return storable(value) ? [] : [path.join('.') || '(record)'];
  if (Array.isArray(value))
    return value.flatMap((item, i) => unstorableTexts(item, [...path, String(i)]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) =>
    storable(key) ? unstorableTexts(item, [...path, key]) : [[...path, '(a key)'].join('.')],
  );
}
