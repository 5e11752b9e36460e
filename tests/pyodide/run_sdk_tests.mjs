// Runs pytest inside Pyodide under Node, on the rules wheel and a copy of the repo's tests.
//
//   node tests/pyodide/run_sdk_tests.mjs --repo DIR --rules-wheel WHL [--pyodide DIR] [--wheels DIR] -- PYTEST_ARGS
//
// --pyodide  npm's pyodide folder (default DIR/web/node_modules/pyodide)
// --wheels   packageCacheDir: micropip plus pytest & co. built for Pyodide (default DIR/web/pyodide-wheels);
//            `scripts/install` downloads them at the venv's versions
// Copies DIR/pyproject.toml, the paths named in PYTEST_ARGS (relative to DIR) and the __init__.py and
// conftest.py files above them to /repo in Pyodide's memory FS, runs tests/pyodide/count_pytest.py
// there, and exits with pytest's exit code.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const split = argv.indexOf("--");
  const own = split < 0 ? argv : argv.slice(0, split);
  const opts = { pytestArgs: split < 0 ? [] : argv.slice(split + 1) };
  for (let i = 0; i < own.length; i += 2) {
    const key = own[i].replace(/^--/, "");
    if (!["repo", "rules-wheel", "pyodide", "wheels"].includes(key) || own[i + 1] === undefined) {
      throw new Error(`unexpected argument ${JSON.stringify(own[i])}; see the header of ${basename(HERE)}`);
    }
    opts[key] = resolve(own[i + 1]);
  }
  if (!opts.repo || !opts["rules-wheel"]) throw new Error("--repo and --rules-wheel are required");
  opts.pyodide ??= join(opts.repo, "web", "node_modules", "pyodide");
  opts.wheels ??= join(opts.repo, "web", "pyodide-wheels");
  return opts;
}

// Yields every file under `path` (or `path` itself), skipping caches and bytecode.
function* filesUnder(path) {
  if (statSync(path).isFile()) {
    yield path;
    return;
  }
  for (const name of readdirSync(path).sort()) {
    if (name === "__pycache__" || name.startsWith(".") || name.endsWith(".pyc")) continue;
    yield* filesUnder(join(path, name));
  }
}

function copyIn(pyodide, hostPath, fsPath) {
  pyodide.FS.mkdirTree(dirname(fsPath));
  pyodide.FS.writeFile(fsPath, new Uint8Array(readFileSync(hostPath)));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const { loadPyodide } = await import(pathToFileURL(join(opts.pyodide, "pyodide.mjs")).href);
  const started = Date.now();
  const pyodide = await loadPyodide({
    indexURL: opts.pyodide + "/",
    packageCacheDir: opts.wheels, // micropip comes from here, never from a CDN
  });
  // Raw writes, so pytest's progress dots share a line as in a terminal; copied, as Pyodide reuses the buffer.
  const writer = (stream) => ({ write: (bytes) => (stream.write(Buffer.from(bytes)), bytes.length) });
  pyodide.setStdout(writer(process.stdout));
  pyodide.setStderr(writer(process.stderr));
  await pyodide.loadPackage("micropip", { messageCallback: () => {} });

  const wheels = readdirSync(opts.wheels).filter((n) => n.endsWith(".whl") && !n.startsWith("micropip-"));
  const urls = [];
  for (const path of [...wheels.map((n) => join(opts.wheels, n)), opts["rules-wheel"]]) {
    copyIn(pyodide, path, `/tmp/wheels/${basename(path)}`);
    urls.push(`emfs:/tmp/wheels/${basename(path)}`);
  }
  const micropip = pyodide.pyimport("micropip");
  await micropip.install.callKwargs(urls, { deps: false });

  // The config, the named test paths, and the __init__.py / conftest.py files of the folders above them.
  const paths = opts.pytestArgs.filter((a) => !a.startsWith("-"));
  const copies = new Set(["pyproject.toml", "conftest.py"]);
  for (const path of paths) {
    for (let dir = dirname(path); dir !== "." && dir !== "/"; dir = dirname(dir)) {
      copies.add(join(dir, "__init__.py")).add(join(dir, "conftest.py"));
    }
    copies.add(path);
  }
  for (const rel of copies) {
    const host = join(opts.repo, rel);
    if (!existsSync(host)) continue;
    for (const file of filesUnder(host)) copyIn(pyodide, file, join("/repo", relative(opts.repo, file)));
  }
  copyIn(pyodide, join(HERE, "count_pytest.py"), "/tmp/runner/count_pytest.py");
  console.error(`pyodide: ready in ${Date.now() - started} ms (${wheels.length + 1} wheels installed)`);

  pyodide.globals.set("pytest_args", pyodide.toPy(opts.pytestArgs));
  const code = await pyodide.runPythonAsync(`
import os, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/tmp/runner")
os.chdir("/repo")
import count_pytest
count_pytest.run(list(pytest_args))
`);
  process.exitCode = code;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 99;
});
