import { PostgreSqlContainer } from '@testcontainers/postgresql';
import { GenericContainer, Wait } from 'testcontainers';

// The Docker path (a developer laptop): the same images as docker-compose.yml. Containers are
// reaped by testcontainers' Ryuk when the test process exits.
export async function startContainers(): Promise<Record<string, string>> {
  const [opensearch, postgres, redis] = await Promise.all([
    new GenericContainer('opensearchproject/opensearch:3.8.0')
      .withEnvironment({
        'discovery.type': 'single-node',
        DISABLE_SECURITY_PLUGIN: 'true',
        DISABLE_INSTALL_DEMO_CONFIG: 'true',
        OPENSEARCH_JAVA_OPTS: '-Xms1g -Xmx1g',
        'cluster.routing.allocation.disk.threshold_enabled': 'false',
      })
      .withExposedPorts(9200)
      .withWaitStrategy(Wait.forHttp('/_cluster/health', 9200).forStatusCode(200))
      .withStartupTimeout(180_000)
      .start(),
    new PostgreSqlContainer('postgres:15')
      .withUsername('postgres')
      .withPassword('postgres')
      .start(),
    new GenericContainer('redis:7').withExposedPorts(6379).start(),
  ]);
  return {
    OPENSEARCH_URL: `http://${opensearch.getHost()}:${opensearch.getMappedPort(9200)}`,
    TEST_DATABASE_ADMIN_URL: postgres.getConnectionUri().replace(/\/[^/]*$/, '/postgres'),
    TEST_REDIS_URL: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
  };
}
