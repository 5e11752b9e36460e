// Build step (Node, never shipped): compiles Pyodide's python_stdlib.zip to bytecode with Pyodide's own
// Python, so the tab does not compile the standard library from source on every load.
//   node web/compile_stdlib.mjs <pyodide dir> <python_stdlib.zip in> <zip out>
import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";

const [indexURL, source, target] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${indexURL}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${indexURL}/` });
pyodide.FS.writeFile("/tmp/in.zip", new Uint8Array(await readFile(source)));
pyodide.runPython(`
import importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

# Code objects name their files where zipimport finds them in the tab (/lib/python3XX.zip/...).
prefix = next(p for p in sys.path if p.endswith(".zip"))
# Entries are stored, not deflated: imports skip inflating, and the server's .br/.gz sibling compresses
# the whole archive better than per-entry deflate does.
with zipfile.ZipFile("/tmp/in.zip") as src, zipfile.ZipFile("/tmp/out.zip", "w", zipfile.ZIP_STORED) as out:
    for info in src.infolist():
        data = src.read(info)
        if info.filename.endswith(".py"):
            code = compile(data, f"{prefix}/{info.filename}", "exec", dont_inherit=True)
            # unchecked hash-based pyc: valid without its source (sourceless, as Pyodide's own builds ship)
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            out.writestr(zipfile.ZipInfo(info.filename + "c", info.date_time), pyc)
        else:
            out.writestr(zipfile.ZipInfo(info.filename, info.date_time), data)
`);
await writeFile(target, pyodide.FS.readFile("/tmp/out.zip"));
