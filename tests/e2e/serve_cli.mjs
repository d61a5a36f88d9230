// The command line every test server of the e2e suite shares: `--port N` (0 = any),
// `--idle S`, `--max-lifetime S`, `--watch-stdin`, plus the server's own numeric flags. It
// prints `listening 127.0.0.1:PORT` and stops itself when idle, past its lifetime, when its
// parent process is gone or (with --watch-stdin) when its stdin closes: a test server never
// outlives the suite.
import { pathToFileURL } from 'node:url';

/** `flags`: the server's own numeric flags, `{'--slow-ms': ['slowMs', 100]}`. */
export function parseArgs(argv, flags = {}) {
  const opts = { port: 0, idle: 120, maxLifetime: 900, watchStdin: false };
  for (const [key, value] of Object.values(flags)) opts[key] = value;
  const numeric = { '--port': 'port', '--idle': 'idle', '--max-lifetime': 'maxLifetime' };
  for (const [flag, [key]] of Object.entries(flags)) numeric[flag] = key;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--watch-stdin') {
      opts.watchStdin = true;
    } else if (numeric[flag]) {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v < 0) throw new Error(`${flag} needs a number`);
      opts[numeric[flag]] = v;
    } else {
      throw new Error(`unknown flag ${flag}`);
    }
  }
  return opts;
}

/** True while process `pid` exists (`process.ppid` is read once at start in Node 20). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/**
 * When `moduleUrl` is the script node was started with: parse the command line, start the
 * server with `start(opts, onRequest)` (→ `{port}`) and keep it only as long as it is used.
 */
export function serveFromCommandLine(moduleUrl, name, flags, start) {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  const main = async () => {
    const opts = parseArgs(process.argv.slice(2), flags);
    let last = Date.now();
    const { port } = await start(opts, () => (last = Date.now()));
    process.stdout.write(`listening 127.0.0.1:${port}\n`);
    const started = Date.now();
    const parent = process.ppid;
    const stop = why => {
      process.stderr.write(`[${name}] stopping: ${why}\n`);
      process.exit(0);
    };
    setInterval(() => {
      const now = Date.now();
      if (now - last > opts.idle * 1000) stop(`idle for ${opts.idle} s`);
      if (now - started > opts.maxLifetime * 1000) stop(`max lifetime ${opts.maxLifetime} s`);
      if (!alive(parent)) stop('parent process gone');
    }, 500).unref();
    if (opts.watchStdin) {
      process.stdin.on('end', () => stop('stdin closed'));
      process.stdin.on('close', () => stop('stdin closed'));
      process.stdin.resume();
    }
  };
  main().catch(e => {
    process.stderr.write(`[${name}] ${e.stack ?? e}\n`);
    process.exit(1);
  });
}
