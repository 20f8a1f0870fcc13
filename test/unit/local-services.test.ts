import { defaultLocalServices } from '../support/local-services';

const LOCAL = 'http://127.0.0.1:19999';

it('an empty variable counts as unset: the local services fill it', async () => {
  const env: NodeJS.ProcessEnv = { OPENSEARCH_URL: '', TEST_REDIS_URL: '' };
  const local = jest.fn(async () => LOCAL);
  await defaultLocalServices(env, local);
  expect(env).toEqual({
    OPENSEARCH_URL: LOCAL,
    TEST_DATABASE_ADMIN_URL: 'postgresql://postgres@127.0.0.1:5432/postgres',
    TEST_REDIS_URL: 'redis://127.0.0.1:6379',
  });
  expect(local).toHaveBeenCalledTimes(1);
});

it('given addresses win, and no local OpenSearch is started for them', async () => {
  const given = {
    OPENSEARCH_URL: 'http://search:9200',
    TEST_DATABASE_ADMIN_URL: 'postgresql://db/postgres',
    TEST_REDIS_URL: 'redis://cache:6379',
  };
  const env: NodeJS.ProcessEnv = { ...given };
  const local = jest.fn(async () => LOCAL);
  await defaultLocalServices(env, local);
  expect(env).toEqual(given);
  expect(local).not.toHaveBeenCalled();
});
