// Build step (Node, never shipped): the Pyodide memory snapshot the server sends to a first visit, made by
// Pyodide under Node exactly as the loader's worker makes one in the browser (static/pyodide-snapshot.mjs):
// the rules wheel unpacked, the client files written, every page's modules and every game imported. A
// first visit then restores it instead of booting Python, installing the wheel with micropip and importing
// (bench/README.md, "Ninth session"). Its name says what it holds; a page whose client, rules or standard
// library differ computes another name, finds nothing and boots plainly.
//   node web/make_snapshot.mjs <pyodide dir> <python_stdlib.zip> <rules wheel> <web/static> <out dir>
// writes <out dir>/<client files' digest>/<wheel>.snap, which holds the whole name (as the loader computes it:
// the stdlib's part too, checked by the tab before it restores the snapshot), and prints the name.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

const [indexURL, stdlibPath, wheelPath, staticDir, outDir] = process.argv.slice(2);
const snapshot = await import(pathToFileURL(join(staticDir, "pyodide-snapshot.mjs")).href);
const { loadPyodide } = await import(pathToFileURL(`${indexURL}/pyodide.mjs`).href);

// The client files as the loader writes them: pyscript.json's "bw_files", URL -> path under HOME.
const config = JSON.parse(await readFile(join(staticDir, "py", "pyscript.json"), "utf8"));
const files = [];
for (const [url, target] of Object.entries(config.bw_files)) {
  if (!url.startsWith("/static/")) throw new Error(`${url}: not a client file under /static/`);
  const path = new URL(target, `file://${snapshot.HOME}/`).pathname;
  files.push([path, new Uint8Array(await readFile(join(staticDir, url.slice("/static/".length))))]);
}
const stdlib = new Uint8Array(await readFile(stdlibPath));
const wheel = `/wheels/${wheelPath.split("/").pop()}`; // as the server's client config names it
const name = await snapshot.snapshotName(stdlib, files, wheel);
const served = await snapshot.clientName(files, wheel); // what a first visit asks for before its stdlib arrives

// Emscripten names the program in Python's environment (`_`) after Node's script: the build's path (where
// this checkout lies on the server) would be in every first visit's memory. A neutral name instead.
process.argv[1] = "/make_snapshot.mjs";
// Pyodide is handed the stdlib zip's bytes, as the loader hands it in the browser.
const pyodide = await loadPyodide({ indexURL: `${indexURL}/`, stdLibURL: stdlibPath, _makeSnapshot: true });
snapshot.prepare(pyodide, { wheelBytes: new Uint8Array(await readFile(wheelPath)), files, wheel });
const out = join(outDir, `${decodeURIComponent(served)}.snap`);
await mkdir(dirname(out), { recursive: true });
await writeFile(out, snapshot.namedSnapshot(name, snapshot.packPages(pyodide.makeMemorySnapshot())));
console.log(name);
