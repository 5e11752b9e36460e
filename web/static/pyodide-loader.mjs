// The interpreter module PyScript loads (pyscript.json "interpreter"): Pyodide's own loadPyodide,
// started from a memory snapshot of an already booted Python, with our modules already imported,
// when this browser keeps one. This is glue PyScript cannot do: it passes no options of its own to
// loadPyodide.
//
// Booting Python and importing our modules is most of a load. So a first visit restores the snapshot the
// server sends (made by the build under Node, web/make_snapshot.mjs: the rules wheel and client modules
// imported, every page's modules and every game, catalogs and page texts read; ~16 MB without its zero pages,
// ~5.3 MB as brotli) and keeps it in Cache Storage ("bw-pyodide-snapshot"); later loads restore the kept one
// and import nothing. When the server has none for this client and rules (a checkout changed after the
// build), the first load boots as usual, then, once the page is up and left alone for a moment, a worker
// boots a second Pyodide, does what the build does and keeps that snapshot instead.
// A snapshot is named by what it holds (pyodide-snapshot.mjs `snapshotName`): the Pyodide version, the
// standard library zip's central directory (a CRC per member; Pyodide is handed exactly those zip bytes),
// the rules wheel's name (its fingerprint) and a digest of the client's sources. A changed client or rules
// wheel simply misses, and is served or made anew.
//
// Also started here, as soon as the page evaluates this module (a module script in the page head,
// before PyScript imports it): the server's client config, the client's sources (pyscript.json
// "bw_files": written into Python's file system here, so PyScript fetches nothing itself) and the
// compiled modules kept by boardweaver_web/bytecode.py, restored before PyScript imports its own
// `pyscript` package. `_loadSnapshot`/`_makeSnapshot` are Pyodide's own (private) options; any
// failure boots plainly.
import { loadPyodide as boot, version } from "/pyodide/314.0.7/pyodide.mjs";
import {
  clientName,
  FRESH_IMPORTS,
  HOME as PYODIDE_HOME,
  snapshotName,
  snapshotNamed,
  unpackPages,
  writeFiles,
} from "./pyodide-snapshot.mjs";

export { version };

const INDEX = new URL("/pyodide/314.0.7/", location.href).href;
// Beside this module: under the client's version (/static/v<version>/) when the page names it so.
// Not PyScript's own request (the "?loader"): each gets its own preload.
const CONFIG_URL = new URL("py/pyscript.json?loader", import.meta.url).href;
const HOME = `${PYODIDE_HOME}/`; // Pyodide's working directory: PyScript writes its files there
const SNAPSHOTS = "bw-pyodide-snapshot";
const BYTECODE = "bw-bytecode"; // boardweaver_web/storage.py BYTECODE_CACHE
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

// The loading panel (room.html and review.html `#booting`): the bytes of the runtime's big files arrived, counted
// against their decoded sizes, which the server writes on the bar (room_pages.py `boot_sizes`), for the files this
// load fetches: the interpreter's wasm and the stdlib always (from the browser's cache after a first visit), the
// server's snapshot when it is asked for. Once they are in, the bar moves without a value while Python starts; the
// first visit's note shows once a big file comes over the network. No bar (the lobby): nothing is drawn.
const booting = (() => {
  const bar = document.getElementById("boot-progress");
  let sizes = {};
  try {
    sizes = JSON.parse(bar?.dataset.sizes || "{}");
  } catch {}
  const expected = new Map(); // part -> its decoded bytes
  const arrived = new Map();
  const draw = () => {
    if (!bar) return;
    let total = 0;
    let got = 0;
    for (const [part, size] of expected) {
      total += size;
      got += Math.min(arrived.get(part) || 0, size);
    }
    if (total > 0 && got < total) bar.value = got / total;
    else bar.removeAttribute("value");
  };
  return {
    expect(part) {
      if (sizes[part] > 0 && !expected.has(part)) expected.set(part, sizes[part]);
      draw();
    },
    add(part, bytes) {
      arrived.set(part, (arrived.get(part) || 0) + bytes);
      draw();
    },
    done(part) {
      arrived.set(part, expected.get(part) || 0);
      draw();
    },
    fromNetwork() {
      document.getElementById("boot-first")?.removeAttribute("hidden");
    },
  };
})();
const FROM_NETWORK = 100_000; // a big file's transfer size over this came over the network, not from the cache
booting.expect("wasm");
booting.expect("stdlib");
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!/pyodide\.asm\.wasm$|python_stdlib\.zip$/.test(entry.name)) continue;
      if (entry.name.endsWith(".wasm")) booting.done("wasm");
      if (entry.transferSize > FROM_NETWORK) booting.fromNetwork();
    }
  }).observe({ type: "resource", buffered: true });
} catch {}

// A response whose body's bytes are counted as they arrive, as the loading panel's `part`.
function counted(response, part) {
  if (!response.ok || !response.body) {
    booting.done(part);
    return response;
  }
  const counter = new TransformStream({
    transform(chunk, out) {
      booting.add(part, chunk.byteLength);
      out.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(counter), { status: response.status, headers: response.headers });
}

const opened = (name) => (globalThis.caches ? caches.open(name) : Promise.reject(new Error("no Cache Storage")));
const quietly = (promise) => promise.catch(() => null);

// The server's client config as text (null when unreachable: boot.py then falls back to its own copy).
const clientConfigText = quietly(
  fetch("/api/client-config").then((response) => (response.ok ? response.text() : null)),
);
globalThis.__bw_client_config = clientConfigText; // read by boardweaver_web.boot.client_config
const STDLIB_URL = `${INDEX}python_stdlib.zip`;
const stdlibBytes = fetch(STDLIB_URL).then((response) => counted(response, "stdlib").arrayBuffer());
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

function mark(name) {
  performance.mark(`bw:${name}`);
}

// The snapshot the server sends to a first visit (made by the build under Node: web/make_snapshot.mjs), asked
// for by the client files' digest and the rules wheel (`clientName`: known before the stdlib arrives), holding
// its whole name: fetched, unpacked and handed over by a worker (a first visit's page thread is busy enough),
// then kept in Cache Storage under its name in place of any older one, for the next loads. Not written to
// the HTTP cache as well (`no-store`). Null when the server has none (another client or rules than the
// build's) or it does not unpack; its name is checked against this load's before it is restored.
const KEY_PREFIX = new URL(`/__bw__/pyodide-snapshot/packed/${version}/`, location.href).href;
const FETCHER = `
${unpackPages}
${snapshotNamed}
// the body's bytes, told to the page every 256 KiB as they arrive (its loading panel's bar)
async function readTelling(response) {
  const reader = response.body.getReader();
  const chunks = [];
  let size = 0;
  let told = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size - told >= 262144) {
      postMessage({ progress: size - told });
      told = size;
    }
  }
  postMessage({ progress: size - told });
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes.buffer;
}
onmessage = async ({ data }) => {
  let packed = null;
  let name = null;
  let offset = 0;
  try {
    const response = await fetch(data.url, { cache: "no-store" });
    if (response.ok) packed = response.body ? await readTelling(response) : await response.arrayBuffer();
    if (packed) [name, offset] = snapshotNamed(packed);
    const memory = packed && unpackPages(packed, offset);
    postMessage({ name, memory }, memory ? [memory] : []);
  } catch {
    packed = null;
    postMessage({ name: null, memory: null });
  }
  try {
    if (packed) {
      const cache = await caches.open(data.snapshots);
      for (const old of await cache.keys()) await cache.delete(old);
      await cache.put(data.prefix + name, new Response(new Uint8Array(packed, offset)));
    }
  } catch {}
  postMessage({ stored: Boolean(packed) });
};`;

function servedSnapshot(part) {
  return new Promise((resolve) => {
    try {
      const worker = new Worker(URL.createObjectURL(new Blob([FETCHER], { type: "text/javascript" })));
      booting.expect("snapshot");
      worker.onmessage = ({ data }) => {
        if ("progress" in data) {
          booting.fromNetwork();
          return booting.add("snapshot", data.progress);
        }
        if ("memory" in data) {
          if (data.memory) mark("served-snapshot-arrived");
          booting.done("snapshot"); // or none came: the bar is not kept waiting for it
          return resolve(data.memory ? data : null);
        }
        worker.terminate();
        mark(data.stored ? "served-snapshot-kept" : "served-snapshot-none");
      };
      worker.onerror = () => {
        booting.done("snapshot");
        resolve(null);
      };
      const url = new URL(`snapshots/${part}.snap`, INDEX).href;
      worker.postMessage({ url, prefix: KEY_PREFIX, snapshots: SNAPSHOTS });
    } catch {
      resolve(null);
    }
  });
}

// Asked for as soon as the client files and the config are here, unless the kept snapshot is of the same
// client and rules (it is then checked with the stdlib's part once the stdlib has arrived).
const earlyServed = (async () => {
  try {
    const [files, wheel] = await Promise.all([clientFiles, rulesWheel()]);
    if (wheel === null || !globalThis.crypto?.subtle) return null;
    const part = await clientName(files, wheel);
    const keptKey = await kept.key;
    return keptKey && keptKey.endsWith(`-${part}`) ? null : { part, snapshot: servedSnapshot(part) };
  } catch {
    return null;
  }
})();

async function rulesWheel() {
  let text = await clientConfigText;
  if (text === null) text = localStorage.getItem(CLIENT_CONFIG_KEY);
  const wheel = text === null ? null : JSON.parse(text).rules_wheel;
  return typeof wheel === "string" ? wheel : null;
}

// The snapshot's key (a URL never fetched), or null when the rules wheel is unknown (offline, first visit).
async function snapshotKey(stdlib, files, wheel) {
  if (wheel === null || !globalThis.crypto?.subtle) return null;
  return `${KEY_PREFIX}${await snapshotName(stdlib, files, wheel)}`;
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

// Pyodide restored from `memory` (a promise), or null when it does not start (the kept copy then dropped).
async function restored(settings, stdlib, memory, key, what) {
  try {
    const bytes = memory.then((snapshot) => snapshot || Promise.reject(new Error("not read")));
    const pyodide = await withStdlib(stdlib, () => boot({ ...settings, _loadSnapshot: bytes }));
    // Restored memory holds the same random state every time: reseed it.
    pyodide.runPython("import random as _r; _r.seed(); del _r");
    return pyodide;
  } catch (error) {
    console.warn(`boardweaver: the ${what} Pyodide snapshot did not start; booting afresh`, error);
    await quietly(opened(SNAPSHOTS).then((cache) => cache.delete(key)));
    return null;
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
  const state = { snapshot: false, served: false, bytecode: false };
  let pyodide = null;
  if (key !== null && (await kept.key) === key) {
    pyodide = await restored(settings, stdlib, kept.bytes.then(({ snapshot }) => snapshot), key, "kept");
    state.snapshot = pyodide !== null;
  } else if (key !== null) {
    // None kept for this load (a first visit, or a new client or rules): the server's, when it has this one.
    const early = await earlyServed;
    const part = key.slice(key.indexOf("-", KEY_PREFIX.length) + 1);
    const served = await (early && early.part === part ? early.snapshot : servedSnapshot(part));
    if (served !== null && `${KEY_PREFIX}${served.name}` === key) {
      pyodide = await restored(settings, stdlib, Promise.resolve(served.memory), key, "served");
      state.snapshot = state.served = pyodide !== null;
    } else if (served !== null) {
      console.warn("boardweaver: the server's Pyodide snapshot is of another standard library:", served.name);
    }
  }
  if (pyodide !== null) mark("pyodide-from-snapshot");
  else {
    pyodide = await withStdlib(stdlib, () => boot(settings));
    if (key !== null) setTimeout(() => whenQuiet(() => makeSnapshot(key, stdlib, files, wheel)), MAKE_AFTER_MS);
  }
  writeFiles(pyodide, files);
  const { bytecode } = await kept.bytes;
  if (bytecode) {
    try {
      // With our modules already imported, only PyScript's own package still imports from files.
      const wanted = state.snapshot ? (path) => path.startsWith(`${HOME}pyscript/`) : () => true;
      writeFiles(
        pyodide,
        storedZipEntries(bytecode).filter(([path]) => wanted(path)),
      );
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
// afterwards, so it cannot be the page's), installs and imports what a page would (pyodide-snapshot.mjs
// `prepare`, as the build does under Node), and keeps its memory.
const WORKER = `
onmessage = async ({ data }) => {
  try {
    const { loadPyodide } = await import(data.index + "pyodide.mjs");
    const { prepare, packPages } = await import(data.module);
    const stdLibURL = URL.createObjectURL(new Blob([data.stdlib]));
    const pyodide = await loadPyodide({ indexURL: data.index, stdLibURL, _makeSnapshot: true });
    const response = await fetch(data.wheelURL);
    if (!response.ok) throw new Error("the rules wheel: " + response.status);
    const wheelBytes = new Uint8Array(await response.arrayBuffer());
    prepare(pyodide, { wheelBytes, files: data.files, wheel: data.wheel });
    const cache = await caches.open(data.cache);
    for (const old of await cache.keys()) await cache.delete(old);
    await cache.put(data.key, new Response(packPages(pyodide.makeMemorySnapshot())));
    postMessage("kept");
  } catch (error) {
    postMessage(String(error));
  }
};`;
const SNAPSHOT_MODULE = new URL("pyodide-snapshot.mjs", import.meta.url).href;

function makeSnapshot(key, stdlib, files, wheel) {
  try {
    const worker = new Worker(URL.createObjectURL(new Blob([WORKER], { type: "text/javascript" })), { type: "module" });
    worker.onmessage = ({ data }) => {
      worker.terminate();
      mark(`snapshot-${data === "kept" ? "kept" : "failed"}`);
      if (data !== "kept") console.warn("boardweaver: no Pyodide snapshot kept:", data);
    };
    const wheelURL = new URL(wheel.startsWith("/") ? wheel : `/wheels/${wheel}`, location.href).href;
    const module = SNAPSHOT_MODULE;
    worker.postMessage({ key, stdlib, files, wheel, wheelURL, module, index: INDEX, cache: SNAPSHOTS });
  } catch (error) {
    console.warn("boardweaver: no Pyodide snapshot kept:", error);
  }
}
