/**
 * The run's service addresses where none is given (no Docker engine): the checkout's local
 * OpenSearch, the machine's Postgres and Redis. An empty variable counts as none, as it does in the
 * app's configuration; kept as given, `OPENSEARCH_URL=` failed 14 suites, and the apps under test
 * started an OpenSearch of their own that outlived the run.
 */
export async function defaultLocalServices(
  env: NodeJS.ProcessEnv,
  localOpenSearch: () => Promise<string>,
): Promise<void> {
  env.OPENSEARCH_URL ||= await localOpenSearch();
  env.TEST_DATABASE_ADMIN_URL ||= 'postgresql://postgres@127.0.0.1:5432/postgres';
  env.TEST_REDIS_URL ||= 'redis://127.0.0.1:6379';
}
