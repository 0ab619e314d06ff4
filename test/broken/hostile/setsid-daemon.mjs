// Hostile: hands the journal to a daemon in its own session (setsid) that speaks the protocol on the inherited pipes.
// The driver itself only waits, so killing its process group kills a bystander while the journal runs on.
import { spawn } from 'node:child_process';
import { referenceHost } from './paths.mjs';

const daemon = spawn(process.execPath, referenceHost(), { detached: true, stdio: 'inherit' });
daemon.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)));
