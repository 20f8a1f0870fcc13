import { readFileSync } from 'node:fs';

/**
 * A process's state letter and parent, from /proc/<pid>/stat; undefined once it has left the
 * table. The command name may hold spaces and parentheses, so the fields are read after its last
 * ')'.
 */
export function procStat(pid: number): { state: string; ppid: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const [state = '', ppid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid) };
}
