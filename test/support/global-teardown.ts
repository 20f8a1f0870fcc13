import { removeCompiledSources } from './compiled-src';
import { dropTemplateDatabase } from './template-database';

/** Drops what the global set-up made for the run (the template database, the compiled src/). */
export default async function globalTeardown(): Promise<void> {
  removeCompiledSources();
  await dropTemplateDatabase();
}
