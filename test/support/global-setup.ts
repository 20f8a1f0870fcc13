import { execFileSync } from 'node:child_process';
import { ensureLocalOpenSearch } from '../../src/infra/local-opensearch';
import { compileSources } from './compiled-src';
import { defaultLocalServices } from './local-services';
import { createTemplateDatabase } from './template-database';

/**
 * Brings up (or reuses) the real services once for the whole run. Explicit URLs win. Otherwise,
 * where a Docker engine answers (a laptop), testcontainers starts OpenSearch, Postgres and Redis;
 * where none does (this machine, CI), the checkout's local OpenSearch is used beside the local
 * Postgres and Redis. The choice is printed so that a run always says which path it took. The
 * child processes' src/ is compiled first (test/support/compiled-src.ts).
 */
export default async function globalSetup(): Promise<void> {
  compileSources();
  if (!process.env.OPENSEARCH_URL && dockerAnswers() && process.env.TEST_USE_DOCKER !== '0') {
    const { startContainers } = await import('./containers');
    const urls = await startContainers();
    Object.assign(process.env, urls);
    console.log(`\n[test] services from testcontainers: ${JSON.stringify(urls)}`);
    await createTemplateDatabase();
    return;
  }
  // An engine this run starts compiles with C1 only, unless OPENSEARCH_JIT says otherwise: a fresh
  // JVM's C2 spent more CPU compiling during one run than its faster code saved (docs/testing.md,
  // Suite time). One already running (npm start's, say) is used as it is.
  const jit = process.env.OPENSEARCH_JIT ? undefined : 'c1';
  await defaultLocalServices(process.env, () => ensureLocalOpenSearch({ jit }));
  console.log(`\n[test] local services: OpenSearch ${process.env.OPENSEARCH_URL}`);
  await createTemplateDatabase();
}

function dockerAnswers(): boolean {
  try {
    execFileSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
      stdio: 'pipe',
      timeout: 5000,
    });
    return true;
  } catch {
    return false;
  }
}
