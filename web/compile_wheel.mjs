// Build step (Node, never shipped): adds compiled bytecode to a pure-Python wheel with Pyodide's own
// Python (like compile_stdlib.mjs for the standard library), so the tab does not compile the package
// from source when it imports it (micropip, imported on a first visit: ~0.25 s).
//   node web/compile_wheel.mjs <pyodide dir> <wheel in> <wheel out>
import { readFile, writeFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";

const [indexURL, source, target] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${indexURL}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${indexURL}/` });
pyodide.FS.writeFile("/tmp/in.whl", new Uint8Array(await readFile(source)));
pyodide.runPython(`
import importlib.util, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

# Code objects name their files where the wheel is installed in the tab (site-packages).
prefix = next(p for p in sys.path if p.endswith("site-packages"))
with zipfile.ZipFile("/tmp/in.whl") as src, zipfile.ZipFile("/tmp/out.whl", "w", zipfile.ZIP_DEFLATED) as out:
    for info in src.infolist():
        data = src.read(info)
        out.writestr(info, data)
        if info.filename.endswith(".py") and ".dist-info/" not in info.filename:
            code = compile(data, f"{prefix}/{info.filename}", "exec", dont_inherit=True)
            # unchecked hash-based pyc beside its source: used as it is (the wheel is versioned as a whole)
            pyc = _code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            out.writestr(zipfile.ZipInfo(importlib.util.cache_from_source(info.filename), info.date_time), pyc)
`);
await writeFile(target, pyodide.FS.readFile("/tmp/out.whl"));
