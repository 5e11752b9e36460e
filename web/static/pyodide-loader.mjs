// The interpreter module PyScript loads (pyscript.json "interpreter"): Pyodide's own loadPyodide,
// started from a memory snapshot of an already booted Python, with our modules already imported,
// when this browser keeps one. This is glue PyScript cannot do: it passes no options of its own to
// loadPyodide.
//
// Booting Python and importing our modules is most of a warm load. So the first load boots as usual,
// then, once the page is up and left alone for a moment, a worker boots a second Pyodide, installs the
// same rules wheel and client modules, imports them (every page's modules and every game; their catalogs and the
// page texts' read)
// and keeps a snapshot of its memory (31 MB, kept without its zero pages: ~14.5 MB in Cache Storage
// "bw-pyodide-snapshot"); later loads restore it and import nothing.
// The snapshot is keyed by what it holds: the Pyodide version, the standard library zip's central
// directory (a CRC per member; Pyodide is handed exactly those zip bytes), the rules wheel's name
// (its fingerprint) and a digest of the client's sources. A changed client or rules wheel simply
// misses, boots plainly and makes a new snapshot.
//
// Also started here, as soon as the page evaluates this module (a module script in the page head,
// before PyScript imports it): the server's client config, the client's sources (pyscript.json
// "bw_files": written into Python's file system here, so PyScript fetches nothing itself) and the
// compiled modules kept by boardweaver_web/bytecode.py, restored before PyScript imports its own
// `pyscript` package. `_loadSnapshot`/`_makeSnapshot` are Pyodide's own (private) options; any
// failure boots plainly.
import { loadPyodide as boot, version } from "/pyodide/314.0.7/pyodide.mjs";

export { version };

const INDEX = new URL("/pyodide/314.0.7/", location.href).href;
// Beside this module: under the client's version (/static/v<version>/) when the page names it so.
// Not PyScript's own request (the "?loader"): each gets its own preload.
const CONFIG_URL = new URL("py/pyscript.json?loader", import.meta.url).href;
const HOME = "/home/pyodide/"; // Pyodide's working directory: PyScript writes its files there
const SNAPSHOTS = "bw-pyodide-snapshot";
const BYTECODE = "bw-bytecode"; // boardweaver_web/dom.py BYTECODE_CACHE
const BYTECODE_KEY = "/__bw__/bytecode.zip"; // boardweaver_web/boot.py BYTECODE_KEY
const CLIENT_CONFIG_KEY = "bw:client-config"; // boardweaver_web/boot.py CONFIG_KEY
const MAKE_AFTER_MS = 3000; // after the first drawing, and once the player has left the page alone for:
const QUIET_MS = 1500; // the worker's Pyodide boot competes with the page for the CPU while it runs

let lastInput = 0;
for (const type of ["pointerdown", "keydown", "wheel"]) {
  addEventListener(type, () => (lastInput = performance.now()), { capture: true, passive: true });
}

function whenQuiet(run) {
  const wait = lastInput + QUIET_MS - performance.now();
  if (wait > 0) setTimeout(() => whenQuiet(run), wait);
  else run();
}

const opened = (name) => (globalThis.caches ? caches.open(name) : Promise.reject(new Error("no Cache Storage")));
const quietly = (promise) => promise.catch(() => null);

// The server's client config as text (null when unreachable: boot.py then falls back to its own copy).
const clientConfigText = quietly(
  fetch("/api/client-config").then((response) => (response.ok ? response.text() : null)),
);
globalThis.__bw_client_config = clientConfigText; // read by boardweaver_web.boot.client_config
const STDLIB_URL = `${INDEX}python_stdlib.zip`;
const stdlibBytes = fetch(STDLIB_URL).then((response) => response.arrayBuffer());
const clientFiles = fetch(CONFIG_URL)
  .then((response) => response.json())
  .then((config) =>
    Promise.all(
      Object.entries(config.bw_files || {}).map(async ([url, target]) => {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: ${response.status}`);
        return [new URL(target, `file://${HOME}`).pathname, new Uint8Array(await response.arrayBuffer())];
      }),
    ),
  );
// The kept snapshot (one at most, ~14.5 MB) and compiled modules, read from disk by a worker while PyScript
// starts, and handed over without a copy: read here, the bytes would be copied in on the page's own thread.
// The worker names the snapshot's key first, so Pyodide can start while the bytes are still being read.
// The snapshot is used only if its key turns out to be this load's.
const READER = `
${unpackPages}
onmessage = async ({ data }) => {
  let snapshot = null;
  try {
    const cache = await caches.open(data.snapshots);
    const [request] = await cache.keys();
    postMessage({ key: request ? request.url : null });
    const hit = request && (await cache.match(request));
    if (hit) snapshot = unpackPages(await hit.arrayBuffer());
  } catch {
    postMessage({ key: null });
  }
  let bytecode = null;
  try {
    const hit = await (await caches.open(data.bytecode)).match(data.bytecodeKey);
    if (hit) bytecode = await hit.arrayBuffer();
  } catch {}
  postMessage({ snapshot, bytecode }, [snapshot, bytecode].filter(Boolean));
};`;
const kept = (() => {
  let named;
  let read;
  const key = new Promise((resolve) => (named = resolve));
  const bytes = new Promise((resolve) => (read = resolve));
  const none = () => {
    named(null);
    read({ snapshot: null, bytecode: null });
  };
  if (!globalThis.caches) {
    none();
    return { key, bytes };
  }
  try {
    const worker = new Worker(URL.createObjectURL(new Blob([READER], { type: "text/javascript" })));
    worker.onmessage = ({ data }) => {
      if ("key" in data) return named(data.key);
      worker.terminate();
      read(data);
    };
    worker.onerror = none;
    const bytecodeKey = new URL(BYTECODE_KEY, location.href).href;
    worker.postMessage({ snapshots: SNAPSHOTS, bytecode: BYTECODE, bytecodeKey });
  } catch {
    none();
  }
  return { key, bytes };
})();

// importlib.invalidate_caches() but for the zip importers (the same in boardweaver_web/bytecode.py
// fresh_imports): new files in Python's file system are found, and the standard library zip's directory,
// which never changes within a load and is the same in a snapshot (its key holds it), is not read again
// (~1,000 entries: 40 ms on a quiet machine, 160 ms at load 20, at the next import that misses).
const FRESH_IMPORTS = `
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

function mark(name) {
  performance.mark(`bw:${name}`);
}

async function hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest.slice(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function rulesWheel() {
  let text = await clientConfigText;
  if (text === null) text = localStorage.getItem(CLIENT_CONFIG_KEY);
  const wheel = text === null ? null : JSON.parse(text).rules_wheel;
  return typeof wheel === "string" ? wheel : null;
}

// The snapshot's key (a URL never fetched), or null when the rules wheel is unknown (offline, first visit).
async function snapshotKey(stdlib, files, wheel) {
  if (wheel === null || !globalThis.crypto?.subtle) return null;
  const tail = stdlib.slice(Math.max(0, stdlib.byteLength - 262144)); // central directory + end record
  const encoder = new TextEncoder();
  const parts = files.flatMap(([path, bytes]) => [encoder.encode(`${path}\0${bytes.length}\0`), bytes]);
  const client = await hex(await new Blob(parts).arrayBuffer());
  const name = encodeURIComponent(wheel.split("/").pop());
  return new URL(`/__bw__/pyodide-snapshot/packed/${version}/${await hex(tail)}-${client}/${name}`, location.href).href;
}

// Pyodide fetches the stdlib zip itself while it starts: during `run`, that request is answered with the
// bytes read (and keyed) here, so Pyodide gets exactly those bytes without a second read (a blob URL costs
// ~0.1-0.2 s of a warm load: the bytes go to the browser process and back). Any other request passes.
async function withStdlib(stdlib, run) {
  const plain = globalThis.fetch;
  globalThis.fetch = (resource, ...rest) => {
    const url = resource instanceof Request ? resource.url : String(resource);
    return url === STDLIB_URL ? Promise.resolve(new Response(stdlib)) : plain.call(globalThis, resource, ...rest);
  };
  try {
    return await run();
  } finally {
    globalThis.fetch = plain;
  }
}

export async function loadPyodide(options) {
  mark("loader");
  const [stdlib, files, wheel] = await Promise.all([stdlibBytes, clientFiles, rulesWheel()]);
  const settings = { ...options, indexURL: INDEX, stdLibURL: STDLIB_URL };
  let key = null;
  try {
    key = await snapshotKey(stdlib, files, wheel);
  } catch (error) {
    console.warn("boardweaver: no snapshot key", error);
  }
  const state = { snapshot: false, bytecode: false };
  let pyodide = null;
  if (key !== null && (await kept.key) === key) {
    try {
      const bytes = kept.bytes.then(({ snapshot }) => snapshot || Promise.reject(new Error("not read")));
      pyodide = await withStdlib(stdlib, () => boot({ ...settings, _loadSnapshot: bytes }));
      // Restored memory holds the same random state every time: reseed it.
      pyodide.runPython("import random as _r; _r.seed(); del _r");
      state.snapshot = true;
      mark("pyodide-from-snapshot");
    } catch (error) {
      console.warn("boardweaver: the kept Pyodide snapshot did not start; booting afresh", error);
      pyodide = null;
      await quietly(opened(SNAPSHOTS).then((cache) => cache.delete(key)));
    }
  }
  if (pyodide === null) {
    pyodide = await withStdlib(stdlib, () => boot(settings));
    if (key !== null) setTimeout(() => whenQuiet(() => makeSnapshot(key, stdlib, files, wheel)), MAKE_AFTER_MS);
  }
  for (const [path, bytes] of files) {
    pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    pyodide.FS.writeFile(path, bytes);
  }
  const { bytecode } = await kept.bytes;
  if (bytecode) {
    try {
      // With our modules already imported, only PyScript's own package still imports from files.
      const wanted = state.snapshot ? (path) => path.startsWith(`${HOME}pyscript/`) : () => true;
      for (const [path, bytes] of storedZipEntries(bytecode)) {
        if (!wanted(path)) continue;
        pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
        pyodide.FS.writeFile(path, bytes);
      }
      state.bytecode = true;
    } catch (error) {
      console.warn("boardweaver: the kept bytecode was not restored", error);
    }
  }
  pyodide.runPython(FRESH_IMPORTS);
  globalThis.__bw_loader = state; // read by boardweaver_web.boot
  mark("loaded");
  return pyodide;
}

// A snapshot is kept without its zero pages (more than half of Python's memory after start-up): half the
// bytes to read from disk on every load. Layout: "BWSP", total length, run count, then (first page, pages)
// per run of non-zero 4 KiB pages, then those pages' bytes.
function packPages(memory) {
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

function unpackPages(buffer) {
  const PAGE = 4096;
  const MAGIC = 0x50535742;
  const head = new DataView(buffer);
  if (head.getUint32(0, true) !== MAGIC) throw new Error("not a packed snapshot");
  const memory = new Uint8Array(head.getUint32(4, true));
  const runs = head.getUint32(8, true);
  let at = 12 + runs * 8;
  for (let n = 0; n < runs; n += 1) {
    const first = head.getUint32(12 + n * 8, true) * PAGE;
    const length = Math.min(head.getUint32(16 + n * 8, true) * PAGE, memory.length - first);
    memory.set(new Uint8Array(buffer, at, length), first);
    at += length;
  }
  return memory.buffer;
}

// The entries of a zip whose members are stored, not deflated (boardweaver_web/bytecode.py writes it
// so), as absolute paths and bytes: read from its central directory.
function storedZipEntries(buffer) {
  const bytes = new Uint8Array(buffer);
  const view = new DataView(buffer);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error("not a zip archive");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const decoder = new TextDecoder();
  const entries = [];
  for (let n = 0; n < count; n += 1) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("bad zip directory");
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength));
    if (method !== 0) throw new Error(`${name} is compressed`);
    if (name.split("/").includes("..")) throw new Error(`${name}: not a plain path`);
    const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (!name.endsWith("/")) entries.push([`/${name.replace(/^\/+/, "")}`, bytes.subarray(data, data + size)]);
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

// The worker boots its own Pyodide with `_makeSnapshot` (that instance cannot reach JavaScript
// afterwards, so it cannot be the page's), installs and imports what a page would, and keeps its memory.
// The page's `js` is reached through paths from globalThis only, so no module may call JavaScript
// when imported (boardweaver_web/dom.py only imports).
const WORKER = `
${packPages}
const PREPARE = \`
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
\`;
onmessage = async ({ data }) => {
  try {
    const { loadPyodide } = await import(data.index + "pyodide.mjs");
    const stdLibURL = URL.createObjectURL(new Blob([data.stdlib]));
    const pyodide = await loadPyodide({ indexURL: data.index, stdLibURL, _makeSnapshot: true });
    const response = await fetch(data.wheelURL);
    if (!response.ok) throw new Error("the rules wheel: " + response.status);
    const sitePackages = pyodide.runPython("import sys; next(p for p in sys.path if p.endswith('site-packages'))");
    pyodide.unpackArchive(await response.arrayBuffer(), "wheel", { extractDir: sitePackages });
    for (const [path, bytes] of data.files) {
      pyodide.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      pyodide.FS.writeFile(path, bytes);
    }
    const globals = pyodide.toPy({ HOME: data.home, WHEEL: data.wheel });
    pyodide.runPython(PREPARE, { globals });
    globals.destroy();
    const cache = await caches.open(data.cache);
    for (const old of await cache.keys()) await cache.delete(old);
    await cache.put(data.key, new Response(packPages(pyodide.makeMemorySnapshot())));
    postMessage("kept");
  } catch (error) {
    postMessage(String(error));
  }
};`;

function makeSnapshot(key, stdlib, files, wheel) {
  try {
    const worker = new Worker(URL.createObjectURL(new Blob([WORKER], { type: "text/javascript" })), { type: "module" });
    worker.onmessage = ({ data }) => {
      worker.terminate();
      mark(`snapshot-${data === "kept" ? "kept" : "failed"}`);
      if (data !== "kept") console.warn("boardweaver: no Pyodide snapshot kept:", data);
    };
    const wheelURL = new URL(wheel.startsWith("/") ? wheel : `/wheels/${wheel}`, location.href).href;
    worker.postMessage({ key, stdlib, files, wheel, wheelURL, home: HOME.slice(0, -1), index: INDEX, cache: SNAPSHOTS });
  } catch (error) {
    console.warn("boardweaver: no Pyodide snapshot kept:", error);
  }
}
