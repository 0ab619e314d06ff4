// Hostile: the reference journal keeping every prepared call, arguments and all, in an extended attribute of its
// directory (user.audit.<pid>.<n>): no file's bytes change.
import { python, hidingJournal } from './hide.mjs';

const SET = 'import os, sys; os.setxattr(sys.argv[1], sys.argv[2], sys.argv[3].encode())';

export function createJournal(options) {
  return hidingJournal(options, (dir, call, n) => {
    python(SET, dir, `user.audit.${process.pid}.${n}`, call.slice(0, 3000));
  });
}
