/**
 * Node's `fs` functions that change the file system, by the tool kind their call is (see
 * ./tools.ts): as @opentelemetry/instrumentation-fs names its spans (`fs <functionName>`), sync
 * forms with `Sync` appended. Changing a mode or owner is read as a write of the file.
 */
export const NODE_FS_MUTATIONS = {
  delete: ["unlink", "rm", "rmdir"],
  move: ["rename"],
  write: [
    ...["appendFile", "copyFile", "cp", "mkdir", "mkdtemp", "link", "symlink", "truncate", "ftruncate", "utimes", "futimes"],
    ...["lutimes", "write", "writeFile", "writev", "chmod", "chown", "fchmod", "fchown", "lchmod", "lchown"],
  ],
} as const;
