import { dropTemplateDatabase } from './template-database';

/** Drops what the global set-up made for the run (the template database). */
export default async function globalTeardown(): Promise<void> {
  await dropTemplateDatabase();
}
