import { availableParallelism } from 'node:os';
import { RestartPolicy } from '../../src/app/processes';
import { ConfigError, parseEnv } from '../../src/config';

// API_PROCESSES (src/config.ts) and the primary's restart policy (src/app/processes.ts): the
// processes themselves are tested in test/integration/api-processes.test.ts.

const processes = (value?: string) =>
  parseEnv(value === undefined ? {} : { API_PROCESSES: value }).API_PROCESSES;

describe('API_PROCESSES', () => {
  it('is 1 unset or empty (one process, no primary), an integer from 1 to 64, or auto', () => {
    expect(processes()).toBe(1);
    expect(processes('')).toBe(1);
    expect(processes('1')).toBe(1);
    expect(processes('4')).toBe(4);
    expect(processes('64')).toBe(64);
    expect(processes('auto')).toBe(Math.min(64, availableParallelism()));
  });

  it.each(['0', '65', '1.5', 'two', '-1', 'AUTO'])('refuses %j naming the variable', (value) => {
    expect(() => processes(value)).toThrow(ConfigError);
    expect(() => processes(value)).toThrow(
      'invalid configuration: API_PROCESSES: expected an integer from 1 to 64, or auto',
    );
  });
});

const LIMITS = { firstDelayMs: 100, maxDelayMs: 1000, failuresInARow: 3 };

describe('the restart policy', () => {
  it('stops at the first failure before any process listened, with its own line', () => {
    const policy = new RestartPolicy(LIMITS);
    expect(
      policy.exited(false, 'port 8080 is already in use: stop what holds it, or set PORT'),
    ).toEqual({
      stop: 'port 8080 is already in use: stop what holds it, or set PORT',
      served: false,
    });
  });

  it('once up, replaces a process that died while serving, at once every time', () => {
    const policy = new RestartPolicy(LIMITS);
    policy.listening();
    for (let i = 0; i < 10; i++) {
      expect(policy.exited(true, 'signal SIGKILL')).toEqual({ replaceInMs: 100 });
      policy.listening();
    }
  });

  it('backs off replacements that die before listening, and gives up after too many in a row', () => {
    const policy = new RestartPolicy(LIMITS);
    policy.listening();
    expect(policy.exited(true, 'crashed')).toEqual({ replaceInMs: 100 });
    expect(policy.exited(false, 'refused')).toEqual({ replaceInMs: 200 });
    expect(policy.exited(false, 'refused')).toEqual({ replaceInMs: 400 });
    expect(policy.exited(false, 'refused again')).toEqual({
      stop: 'API processes failed to start 3 times in a row; the last: refused again',
      served: true,
    });
  });

  it('a process that listens starts the count over; the delay never passes its bound', () => {
    const policy = new RestartPolicy({ ...LIMITS, failuresInARow: 10 });
    policy.listening();
    policy.exited(false, 'refused');
    policy.exited(false, 'refused');
    policy.listening();
    expect(policy.exited(false, 'refused')).toEqual({ replaceInMs: 200 });
    for (let i = 0; i < 6; i++) policy.exited(false, 'refused');
    expect(policy.exited(false, 'refused')).toEqual({ replaceInMs: 1000 });
  });
});
