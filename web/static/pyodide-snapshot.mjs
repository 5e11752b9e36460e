// What a Pyodide memory snapshot of ours holds, how it is named and how it is kept: shared by the loader
// (pyodide-loader.mjs: it restores one, and its worker makes one in the browser when none fits) and by
// the build (web/make_snapshot.mjs: Pyodide under Node makes the one the server sends to a first visit).
// No side effect on import, no page API: it runs in the page, in a worker and in Node.

export const HOME = "/home/pyodide"; // Pyodide's working directory: PyScript writes its files there

// importlib.invalidate_caches() but for the zip importers (the same in boardweaver_web/bytecode.py
// fresh_imports): new files in Python's file system are found, and the standard library zip's directory,
// which never changes within a load and is the same in a snapshot (its name holds it), is not read again
// (~1,000 entries: 40 ms on a quiet machine, 160 ms at load 20, at the next import that misses).
export const FRESH_IMPORTS = `
def _bw_fresh():
    import sys, zipimport
    from importlib.machinery import PathFinder
    for name, finder in list(sys.path_importer_cache.items()):
        if finder is None or not name.startswith("/"):
            del sys.path_importer_cache[name]
        elif not isinstance(finder, zipimport.zipimporter) and hasattr(finder, "invalidate_caches"):
            finder.invalidate_caches()
    for finder in sys.meta_path:  # the other finders, as importlib does (PathFinder's is the loop above)
        if finder is not PathFinder and hasattr(finder, "invalidate_caches"):
            finder.invalidate_caches()
_bw_fresh()
del _bw_fresh
`;

// What a page would import, imported: every page's modules and every game (their catalogs read) and the
// page texts' catalogs. The page's `js` is reached through paths from globalThis only, so no client module
// may call JavaScript when imported (boardweaver_web/dom.py only imports): the instance that makes a
// snapshot is not the page's (a worker's, or Node's).
const PREPARE = `
import importlib, sys
sys.path.insert(0, HOME)
from importlib.metadata import entry_points
for entry in entry_points(group="boardweaver.games"):  # the served games, as the rules wheel lists them
    entry.load().catalogs()
for name in ("boot", "room", "lobby", "review"):
    importlib.import_module("boardweaver_web." + name)
texts = importlib.import_module("boardweaver_web.texts")
for language in texts.LANGUAGES:  # the page texts' catalogs, read (every page reads its language's and English)
    texts.catalog_texts(language)
sys.path.remove(HOME)
${FRESH_IMPORTS}
sys._bw_preloaded = {"wheel": WHEEL}
`;

export function writeFiles(pyodide, files) {
  for (const [path, bytes] of files) {
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, bytes);
  }
}

// Into a Pyodide booted with `_makeSnapshot`: the rules wheel unpacked, the client files written (absolute
// paths and bytes, as the loader writes them) and everything imported; then its memory is the snapshot.
export function prepare(pyodide, { wheelBytes, files, wheel }) {
  const sitePackages = pyodide.runPython("import sys; next(p for p in sys.path if p.endswith('site-packages'))");
  pyodide.unpackArchive(wheelBytes, "wheel", { extractDir: sitePackages });
  writeFiles(pyodide, files);
  const globals = pyodide.toPy({ HOME, WHEEL: wheel });
  pyodide.runPython(PREPARE, { globals });
  globals.destroy();
}

async function hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.slice(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// A snapshot's name says what its memory holds (with Pyodide's version, in the path it is kept under): the
// standard library zip's central directory (a CRC per member; Pyodide is handed exactly those zip bytes),
// then `clientName`: a digest of the client files (paths and bytes) and the rules wheel's file name (its
// fingerprint). `stdlib` an ArrayBuffer or a view, `files` [absolute path, bytes], `wheel` the wheel's URL.
export async function snapshotName(stdlib, files, wheel) {
  const zip = ArrayBuffer.isView(stdlib) ? stdlib : new Uint8Array(stdlib);
  const tail = zip.slice(Math.max(0, zip.byteLength - 262144)); // central directory + end record
  return `${await hex(tail)}-${await clientName(files, wheel)}`;
}

// The part of a snapshot's name known before the stdlib has arrived: what the server's snapshot is sent under.
export async function clientName(files, wheel) {
  const encoder = new TextEncoder();
  const parts = files.flatMap(([path, bytes]) => [encoder.encode(`${path}\0${bytes.length}\0`), bytes]);
  const client = await hex(await new Blob(parts).arrayBuffer());
  return `${client}/${encodeURIComponent(wheel.split("/").pop())}`;
}

// The server's snapshot is a packed one (below) after its whole name: "BWSN", the name's length, the name
// (UTF-8), zeros to a multiple of 4. The loader checks the name against its own before restoring it. (Each
// function stands alone, as packPages and unpackPages: the loader hands their source to its workers.)

export function namedSnapshot(name, packed) {
  const NAMED = 0x4e535742;
  const text = new TextEncoder().encode(name);
  const start = 8 + Math.ceil(text.length / 4) * 4;
  const out = new Uint8Array(start + packed.length);
  const head = new DataView(out.buffer);
  head.setUint32(0, NAMED, true);
  head.setUint32(4, text.length, true);
  out.set(text, 8);
  out.set(packed, start);
  return out;
}

// [name, the packed snapshot's offset in `buffer`] of a server's snapshot.
export function snapshotNamed(buffer) {
  const NAMED = 0x4e535742;
  const head = new DataView(buffer);
  if (buffer.byteLength < 8 || head.getUint32(0, true) !== NAMED) throw new Error("not a named snapshot");
  const length = head.getUint32(4, true);
  if (8 + length > buffer.byteLength) throw new Error("a named snapshot cut short");
  return [new TextDecoder().decode(new Uint8Array(buffer, 8, length)), 8 + Math.ceil(length / 4) * 4];
}

// A snapshot is kept without its zero pages (more than half of Python's memory after start-up): half the
// bytes to read from disk on every load. Layout: "BWSP", total length, run count, then (first page, pages)
// per run of non-zero 4 KiB pages, then those pages' bytes.
export function packPages(memory) {
  const PAGE = 4096;
  const MAGIC = 0x50535742;
  const words = new Uint32Array(memory.buffer, memory.byteOffset, Math.floor(memory.byteLength / 4));
  const pages = Math.ceil(memory.byteLength / PAGE);
  const isZero = (page) => {
    const end = Math.min((page + 1) * PAGE, memory.byteLength);
    for (let at = page * PAGE; at + 4 <= end; at += 4) if (words[at / 4]) return false;
    for (let at = end & ~3; at < end; at += 1) if (memory[at]) return false;
    return true;
  };
  const runs = [];
  for (let page = 0; page < pages; page += 1) {
    if (isZero(page)) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === page) last[1] += 1;
    else runs.push([page, 1]);
  }
  const data = runs.reduce((sum, [first, count]) => sum + Math.min(count * PAGE, memory.byteLength - first * PAGE), 0);
  const out = new Uint8Array(12 + runs.length * 8 + data);
  const head = new DataView(out.buffer);
  head.setUint32(0, MAGIC, true);
  head.setUint32(4, memory.byteLength, true);
  head.setUint32(8, runs.length, true);
  let at = 12 + runs.length * 8;
  runs.forEach(([first, count], n) => {
    head.setUint32(12 + n * 8, first, true);
    head.setUint32(16 + n * 8, count, true);
    const bytes = memory.subarray(first * PAGE, Math.min((first + count) * PAGE, memory.byteLength));
    out.set(bytes, at);
    at += bytes.length;
  });
  return out;
}

export function unpackPages(buffer, offset = 0) {
  const PAGE = 4096;
  const MAGIC = 0x50535742;
  const head = new DataView(buffer, offset);
  if (head.byteLength < 12 || head.getUint32(0, true) !== MAGIC) throw new Error("not a packed snapshot");
  const memory = new Uint8Array(head.getUint32(4, true));
  const runs = head.getUint32(8, true);
  let at = offset + 12 + runs * 8;
  for (let n = 0; n < runs; n += 1) {
    const first = head.getUint32(12 + n * 8, true) * PAGE;
    const length = Math.min(head.getUint32(16 + n * 8, true) * PAGE, memory.length - first);
    if (length < 0 || at + length > buffer.byteLength) throw new Error("a packed snapshot cut short");
    memory.set(new Uint8Array(buffer, at, length), first);
    at += length;
  }
  if (at !== buffer.byteLength) throw new Error("a packed snapshot of the wrong length");
  return memory.buffer;
}
